// A modal dialog: the browser's own <dialog> opened with showModal(), so focus moves into it (to
// its first field), the rest of the page is inert, and Escape closes it; when it closes, focus goes
// back to what had it before (the button that opened it). Shown while mounted: the opener renders
// it when needed and drops it in `onClose`.
import { useEffect, useId, useRef, type ReactNode } from "react";

export function Dialog({ title, onClose, children }: { title: ReactNode; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    return () => {
      if (d.open) d.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      // Escape, or close() from the cleanup: only a dialog that stays closed tells its opener
      // (React's development double mount closes and opens it again at once).
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}
