// Reads a server-sent event stream over real HTTP: frames parsed as they arrive, with a deadline.

export interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

export interface SseReader {
  /** Every raw byte received so far, as text. */
  raw(): string;
  /** Resolves with the first event (already received or still to come) that `match` accepts. */
  next(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  close(): Promise<void>;
}

export async function readEvents(res: Response): Promise<SseReader> {
  if (!res.ok || res.body === null) throw new Error(`event stream refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let buffer = '';
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let done = false;
  void (async () => {
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        const chunk = decoder.decode(value, { stream: true });
        text += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e: SseEvent = { event: 'message', data: '' };
          let has = false;
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'event') e.event = value;
            else if (field === 'id') e.id = value;
            else if (field === 'data') e.data += value;
            else continue;
            has = true;
          }
          if (has && e.data !== '') events.push(e);
        }
        for (const w of waiters) w();
      }
    } catch {
      // closed
    } finally {
      done = true;
      for (const w of waiters) w();
    }
  })();
  return {
    raw: () => text,
    async next(match, ms = 15_000) {
      const deadline = Date.now() + ms;
      let seen = 0;
      for (;;) {
        for (; seen < events.length; seen++) if (match(events[seen]!)) return events[seen]!;
        if (done) throw new Error(`stream ended without the event; got: ${text}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for an event; got: ${text}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          const w = () => {
            clearTimeout(t);
            waiters.delete(w);
            resolve();
          };
          waiters.add(w);
        });
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}
