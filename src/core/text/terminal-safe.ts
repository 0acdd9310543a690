// Text from files shown on a terminal: control characters a file may hold (an agent can write
// ESC sequences that clear the screen, retitle the window, rewrite earlier lines or hide text) are
// shown escaped, so a terminal prints them instead of obeying them. Tab and line feed stay; other
// C0 controls, DEL and the C1 controls become `\xHH` (`\r` for a carriage return), and the bidi
// overrides and isolates (text shown in another order than it is stored) become `\uHHHH`.

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** `text` with every control character a terminal would act on written out as an escape. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const n = c.charCodeAt(0);
    if (n === 0x0d) return '\\r';
    return n <= 0xff ? `\\x${hex(n, 2)}` : `\\u${hex(n, 4)}`;
  });
}
