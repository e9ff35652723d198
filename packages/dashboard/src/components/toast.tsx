import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useState } from 'preact/hooks';

interface Toast {
  id: number;
  text: string;
  kind: 'ok' | 'error';
}

const ToastContext = createContext<(text: string, kind?: Toast['kind']) => void>(() => {});

/** Confirms what a save did, announced to screen readers; errors stay until dismissed. */
export const useToast = () => useContext(ToastContext);

let next = 1;

export function ToastProvider({ children }: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = (id: number) => setToasts((all) => all.filter((t) => t.id !== id));
  const show = useCallback((text: string, kind: Toast['kind'] = 'ok') => {
    const id = next++;
    setToasts((all) => [...all.slice(-3), { id, text, kind }]);
    if (kind === 'ok') setTimeout(() => dismiss(id), 4000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} class={`toast ${t.kind}`}>
            <span>{t.text}</span>
            <button type="button" class="link" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
