/**
 * Child process: one host app (Express, Koa or Fastify), either with Flagmount mounted at /flags (and, when asked,
 * the ceiling's bare route beside it, at /fixed) or with a bare route answering fixed bytes (the ceiling). Config
 * is JSON in argv[2]; reports `{ type: 'ready', port, … }`.
 */
import { createFlagmount, type Flagmount } from '@flagmount/core';
import { fail, report } from './child.js';
import { bareRoute, hostApp, prepareAnswer, type PreparedAnswer, type RunningServer } from './frameworks.js';
import { PREFIX, type BareResponse, type HostConfig } from './host-config.js';
import { openStore } from './stores.js';

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2]!) as HostConfig;
  let instance: Flagmount | undefined;
  let server: RunningServer;
  if (config.mode === 'bare') {
    server = await bareRoute(config.framework, config.path, config.response, config.spinMicros);
  } else {
    instance = await createFlagmount({
      storage: await openStore(config.store),
      bootstrap: {
        managementKey: config.managementKey,
        sdkKeys: { development: { publishableKey: config.publishableKey, secretKey: config.secretKey } },
      },
    });
    let answer: PreparedAnswer | undefined;
    const barePath = config.barePath;
    if (barePath) {
      process.on('message', (message: { type?: string; response?: BareResponse }) => {
        if (message?.type !== 'bare-answer' || !message.response) return;
        answer = prepareAnswer(message.response);
        report({ type: 'bare-ready' });
      });
    }
    const bare = barePath ? { path: barePath, answer: () => answer } : undefined;
    server = await hostApp(config.framework, { mount: { instance, prefix: PREFIX }, bare });
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // close() flushes acknowledged-but-buffered writes (there should be none: a 200 means committed).
    void server
      .close()
      .then(() => instance?.close())
      .catch((error: unknown) => console.error(error))
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  report({
    type: 'ready',
    port: server.port,
    ...(instance?.bootstrap ? { appId: instance.bootstrap.appId, environments: instance.bootstrap.environments } : {}),
  });
}

main().catch(fail);
