// nginx (Debian package) serving a directory on loopback, with a private prefix and config.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stopChild } from './daemon.js';
import { freePort, waitForHttp } from './ports.js';

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

export async function startNginx(bin: string, work: string, docroot: string): Promise<Nginx> {
  const prefix = path.join(work, 'nginx');
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const port = await freePort();
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${docroot};
  }
}
`,
  );
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, 10_000);
  return { url, stop: () => stopChild(child) };
}
