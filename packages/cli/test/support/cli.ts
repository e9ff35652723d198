import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@flagmount/cli';
import { createFlagmount, type Flagmount } from '@flagmount/core';
import { flagmountExpress } from '@flagmount/express';
import { sqliteStorage } from '@flagmount/storage-sqlite';
import express from 'express';

export const MANAGEMENT_KEY = 'fmk_cli_test_0123456789abcdefghijklmnopqrstuv';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command line in this process, as the bin would, in `cwd`. */
export async function cli(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { USER: 'tester', ...env },
    cwd,
  });
  return { code, stdout, stderr };
}

export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'flagmount-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningMount {
  instance: Flagmount;
  /** The mount's URL: `http://127.0.0.1:<port>/flags`. */
  url: string;
  /** Management API call with the bootstrap key. */
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  appId: string;
  envId(name: string): string;
  close(): Promise<void>;
}

/** An Express host with Flagmount mounted at /flags on a free port, over a SQLite file (bootstrapped). */
export async function startMount(filename: string, pollIntervalMs = 0): Promise<RunningMount> {
  const instance = await createFlagmount({ storage: sqliteStorage({ filename, pollIntervalMs }), bootstrap: { managementKey: MANAGEMENT_KEY } });
  const app = express();
  app.use('/flags', flagmountExpress(instance));
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/flags`;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${MANAGEMENT_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { data } = await api('GET', '/apps');
  const appId = data[0].id as string;
  const envs = data[0].environments as Array<{ id: string; name: string }>;
  return {
    instance,
    url,
    api,
    appId,
    envId: (name) => envs.find((e) => e.name === name)!.id,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await instance.close();
    },
  };
}

/**
 * A setup touching every part of the document: a custom segment, flags on stages, an archived flag, rules with a
 * segment and a rollout, and config variants whose payloads differ between environments.
 */
export async function seed(mount: RunningMount): Promise<void> {
  const { api, appId } = mount;
  const stages = (await api('GET', `/apps/${appId}/stages`)).data as Array<{ id: string; name: string }>;
  const beta = stages.find((s) => s.name === 'Beta')!.id;
  const segment = await api('POST', `/apps/${appId}/segments`, {
    name: 'Beta testers',
    filter: { type: 'context', field: 'company.id', operator: 'ANY_OF', values: ['acme', 'globex'] },
  });
  await api('POST', `/apps/${appId}/flags`, { key: 'new-checkout', name: 'New checkout', stageId: beta });
  await api('POST', `/apps/${appId}/flags`, { key: 'banner', name: 'Banner', description: 'Top banner' });
  const legacy = await api('POST', `/apps/${appId}/flags`, { key: 'legacy-search', name: 'Legacy search' });
  await api('PATCH', `/apps/${appId}/flags/${legacy.flag.id}`, { isArchived: true });
  const put = (flag: string, env: string, body: unknown) => api('PUT', `/apps/${appId}/flags/${flag}/targeting/${mount.envId(env)}`, body);
  await put('new-checkout', 'Production', { rules: [{ segmentId: segment.segment.id, filter: { type: 'constant', value: true } }] });
  await put('new-checkout', 'Development', {
    rules: [{ filter: { type: 'rolloutPercentage', partialRolloutAttribute: 'company.id', partialRolloutThreshold: 50000 } }],
  });
  await put('banner', 'Production', {
    rules: [{ filter: { type: 'constant', value: true } }],
    config: { variants: [{ key: 'blue', payload: { color: 'blue', size: 2 }, filter: { type: 'constant', value: true } }] },
  });
  await put('banner', 'Development', {
    rules: [],
    config: { variants: [{ key: 'plain', payload: 'plain', filter: { type: 'constant', value: true } }] },
  });
}
