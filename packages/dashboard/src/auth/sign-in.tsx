import { useState } from 'preact/hooks';
import { TextField } from '../components/field.js';

/** Shown when the host has no signed-in person for this request: a management key opens the dashboard. */
export function SignIn({ onKey, error }: { onKey: (key: string) => void; error?: string | undefined }) {
  const [key, setKey] = useState('');
  return (
    <main class="sign-in">
      <h1>Flagmount</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) onKey(key.trim());
        }}
      >
        <p>Sign in to the host app, or enter a management API key. The key stays in this tab only.</p>
        <TextField label="Management key" type="password" value={key} onInput={setKey} error={error ? [error] : []} autoFocus autoComplete="off" />
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}
