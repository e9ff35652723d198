import type { ComponentChildren } from 'preact';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <p class="state" role="status" aria-live="polite">
      {label}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="state empty">{children}</div>;
}
