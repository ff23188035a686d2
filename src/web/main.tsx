// The web app's entry: one React root, the query cache, the router.
// The stylesheet after theme.css (index.html links that one): small screens and the pages' own parts.
import "./app/layout.css";
import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { isRetryable } from "./app/api";
import { router } from "./app/router";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Retry only what may mend by itself: the network or a 5xx, twice.
      retry: (n, e) => n < 2 && isRetryable(e),
    },
  },
});

// The first render as a transition: React renders it in slices, giving the browser the main
// thread between them, instead of one long task a phone's input would wait for
// (docs/performance.md "The web app").
const root = createRoot(document.getElementById("root")!);
startTransition(() =>
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
