// The login form: one field, the daemon's token (the same token the HTTP API takes as a bearer).
// Served at / to a browser without a session, and again (401, or 429 when rate-limited) with the
// reason after a refused attempt. The form posts to /console/login on this origin only (the CSP's
// form-action); every interpolated text is escaped. It names nothing of the server (not even its
// root) to a visitor who has not logged in.

import { escapeHtml } from '../html-escape.js';

export function loginPage(message?: string): string {
  const error = message === undefined ? '' : `\n      <p class="error" role="alert" id="login-error">${escapeHtml(message)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>hashline console: log in</title>
  <link rel="stylesheet" href="/console/assets/console.css">
</head>
<body class="login">
  <main>
    <h1>hashline console</h1>
    <form method="post" action="/console/login" class="card">${error}
      <label for="token">Token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required autofocus${message === undefined ? '' : ' aria-describedby="login-error"'}>
      <p class="hint">The server's token: the file given to <code>--token-file</code>, or <code>HASHLINE_TOKEN</code>. It is checked once; the browser then keeps only a session cookie.</p>
      <button type="submit">Log in</button>
    </form>
  </main>
</body>
</html>
`;
}
