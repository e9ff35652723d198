import { useToast } from './toast.js';

/** Copies with the Clipboard API, or, where it is refused (no permission, not focused), with a selected textarea. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}

/** "Copy" next to a key or id; `what` names it for screen readers and in the confirmation. */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const toast = useToast();
  return (
    <button
      type="button"
      class="small"
      aria-label={`Copy ${what}`}
      onClick={() => void copyText(text).then((ok) => toast(ok ? `Copied ${what}` : `Could not copy ${what}; select it and copy by hand`, ok ? 'ok' : 'error'))}
    >
      Copy
    </button>
  );
}
