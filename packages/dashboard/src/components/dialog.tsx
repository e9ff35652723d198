import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal on the native <dialog>: the browser traps focus, Escape closes it and focus returns to the element
 * that opened it.
 */
export function Dialog({ title, open, onClose, children }: { title: string; open: boolean; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal?.();
      if (!dialog.showModal) dialog.setAttribute('open', '');
      // Closed before focusing the opener: while a modal dialog is open the rest of the page is inert, and an
      // unmounted dialog's cleanup runs before its element leaves the page.
      return () => {
        if (dialog.open) dialog.close?.();
        opener?.focus?.();
      };
    }
    if (!open && dialog.open) dialog.close?.();
    return undefined;
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** "Are you sure?" with the consequence spelled out; the confirming button says what it does. */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onCancel}>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" onClick={props.onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" class={props.danger ? 'danger' : 'primary'} disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
