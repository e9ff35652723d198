/** The closing row of a form: Cancel, and the submit button that says what it does (disabled while it runs). */
export function FormActions({ submitLabel, busy, onCancel, cancelLabel = 'Cancel' }: { submitLabel?: string | undefined; busy: boolean; onCancel: () => void; cancelLabel?: string }) {
  return (
    <div class="actions">
      <button type="button" onClick={onCancel}>
        {cancelLabel}
      </button>
      {submitLabel ? (
        <button type="submit" class="primary" disabled={busy}>
          {submitLabel}
        </button>
      ) : null}
    </div>
  );
}
