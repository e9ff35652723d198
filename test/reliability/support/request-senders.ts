import { bodyText, type CoreHandler } from '@flagmount/core';

/**
 * The two ways the isolation matrix sends a request: over HTTP through a host server (the real path, headers and
 * all), or straight into a core handler (the self-check, which builds a handler from a deliberately broken table).
 */

export interface Answer {
  status: number;
  contentType: string | null | undefined;
  text: string | undefined;
}
export type Send = (method: string, path: string, options: { authorization?: string; query?: Array<[string, string]>; body?: string }) => Promise<Answer>;

export function handlerSend(handler: CoreHandler): Send {
  return async (method, path, { authorization, query = [], body }) => {
    const response = await handler({
      method,
      path,
      query,
      headers: { ...(authorization ? { authorization } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? { kind: 'none' } : { kind: 'raw', text: body, contentType: 'application/json' },
    });
    if (response.stream) response.stream.open({ write: () => {}, end: () => {} })();
    return { status: response.status, contentType: response.headers['content-type'], text: bodyText(response) };
  };
}

export function httpSend(baseUrl: string): Send {
  return async (method, path, { authorization, query = [], body }) => {
    const search = query.length ? `?${new URLSearchParams(query).toString()}` : '';
    const controller = new AbortController();
    const res = await fetch(baseUrl + path + search, {
      method,
      redirect: 'manual',
      signal: controller.signal,
      headers: { ...(authorization ? { authorization } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
    const contentType = res.headers.get('content-type');
    if (contentType?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: res.status, contentType, text: undefined };
    }
    return { status: res.status, contentType, text: await res.text() };
  };
}
