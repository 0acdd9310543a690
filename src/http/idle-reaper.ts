// Ends a closing server's idle connections as they go idle, so a shutdown waits only for the
// requests in flight. server.close() ends the connections idle at that moment; one whose request
// finishes later, or one a client opened and sent nothing on (a pooled client may open one after
// an abort), would otherwise hold the shutdown until the keep-alive or headers timeout (60-70 s).

import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a closing server looks for connections that went idle. */
const REAP_MS = 50;

export interface IdleReaper {
  /** Starts ending idle connections until the server has closed. */
  start(): void;
}

export function idleReaper(server: Server): IdleReaper {
  const sockets = new Set<Socket>();
  const used = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.prependListener('request', (req) => {
    used.add(req.socket);
  });
  const reap = () => {
    server.closeIdleConnections();
    // a connection that never sent a byte has no request to finish
    for (const socket of sockets) if (!used.has(socket) && socket.bytesRead === 0) socket.destroy();
  };
  return {
    start() {
      reap();
      const timer = setInterval(reap, REAP_MS);
      timer.unref();
      server.once('close', () => clearInterval(timer));
    },
  };
}
