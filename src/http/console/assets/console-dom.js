// The console's DOM helpers: elements built from text nodes (never innerHTML: paths and file content
// are data from agents, not markup) and the times shown in the tables.

/** Makes an element; string children become text nodes. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

const pad = (n) => String(n).padStart(2, '0');
export function when(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
export const timeCell = (ms) => el('td', { class: 'when' }, el('time', { datetime: new Date(ms).toISOString(), text: when(ms) }));
/** Time over date, for narrow columns. */
export const stackedTime = (ms) => {
  const [day, clock] = when(ms).split(' ');
  return el('span', { class: 'when' }, el('time', { datetime: new Date(ms).toISOString() }, clock, el('span', { class: 'sub' }, day)));
};
