// A page's tab bar (a mod's, a list's, the admin's): one row at any width. What does not fit
// scrolls sideways; the current tab is scrolled into view (the bar only, never the page), and
// `data-more` says on which side more tabs wait, for the fade at that edge.
import { useEffect, useRef, type ReactNode } from "react";

export function TabNav({ label, current, children }: { label: string; /** The current tab's id: scrolled into view when it changes. */ current: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = ref.current;
    if (!nav) return;
    const mark = () => {
      const left = nav.scrollLeft > 1;
      const right = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1;
      const more = left && right ? "both" : left ? "left" : right ? "right" : "";
      if (more) nav.dataset.more = more;
      else delete nav.dataset.more;
    };
    // The current tab in view: centred in the bar when it is not (wholly) visible.
    const reveal = () => {
      const active = nav.querySelector<HTMLElement>('[aria-current="page"]');
      if (active && nav.scrollWidth > nav.clientWidth) {
        const start = active.offsetLeft - nav.offsetLeft;
        if (start < nav.scrollLeft || start + active.offsetWidth > nav.scrollLeft + nav.clientWidth) nav.scrollLeft = start - (nav.clientWidth - active.offsetWidth) / 2;
      }
      mark();
    };
    reveal();
    nav.addEventListener("scroll", mark, { passive: true });
    window.addEventListener("resize", reveal);
    return () => {
      nav.removeEventListener("scroll", mark);
      window.removeEventListener("resize", reveal);
    };
  }, [current]);
  return (
    <nav ref={ref} className="tabs" aria-label={label}>
      {children}
    </nav>
  );
}
