// Finds the top-level "id" and "method" of a JSON-RPC message, and the tool's "name" in its
// "params", while the bytes stream past, without keeping them: used to answer a request that is
// too large to buffer (a tools/call gets its tool's own error result). Tracks nesting and strings,
// so an "id" or "name" key deeper in the params is never mistaken for these.

type Field = 'id' | 'method' | 'name';

export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private token = '';
  private value = '';
  private valueBytes: number[] = [];
  private capturing: Field | null = null;
  /** The key at the top level whose value is being read (to know when an object is "params"). */
  private topKey = '';
  private inParams = false;
  /** The id, once seen (string or number); undefined until then. */
  id: string | number | undefined;
  /** The method, once seen. */
  method: string | undefined;
  /** `params.name` (the tool of a tools/call), once seen. */
  toolName: string | undefined;

  push(chunk: Uint8Array): void {
    if (this.id !== undefined && this.method !== undefined && this.toolName !== undefined) return;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.capturing) {
        if (this.value.startsWith('"')) {
          this.value += String.fromCharCode(c);
          this.valueBytes.push(c);
          if (this.escaped) this.escaped = false;
          else if (c === 0x5c) this.escaped = true;
          else if (c === 0x22 && this.value.length > 1) {
            this.finish();
            continue;
          }
          if (this.value.length > 256) this.capturing = null;
          continue;
        }
        if (c === 0x2c || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          if (this.value.length > 0) {
            this.finish();
            // the delimiter still counts for the nesting
            if (c === 0x7d) this.close();
            continue;
          }
          if (c === 0x2c || c === 0x7d) {
            this.capturing = null;
            if (c === 0x7d) this.close();
          }
          continue;
        }
        if (this.value === '' && (c === 0x7b || c === 0x5b)) {
          // an object or array is no usable value: scan it as structure
          this.capturing = null;
          this.open();
          continue;
        }
        this.value += String.fromCharCode(c);
        this.valueBytes.push(c);
        if (this.value.length > 64) this.capturing = null;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        else if (this.depth <= 2 && this.token.length < 16) this.token += String.fromCharCode(c);
        continue;
      }
      switch (c) {
        case 0x22:
          this.inString = true;
          this.token = '';
          break;
        case 0x7b:
        case 0x5b:
          this.open();
          break;
        case 0x7d:
        case 0x5d:
          this.close();
          break;
        case 0x3a:
          if (this.depth === 1) {
            this.topKey = this.token;
            if (this.token === 'id' || this.token === 'method') this.startCapture(this.token);
          } else if (this.depth === 2 && this.inParams && this.token === 'name') {
            this.startCapture('name');
          }
          break;
        default:
          break;
      }
    }
  }

  private open(): void {
    this.depth++;
    if (this.depth === 2) this.inParams = this.topKey === 'params';
  }

  private close(): void {
    this.depth--;
    if (this.depth < 2) this.inParams = false;
  }

  private startCapture(field: Field): void {
    this.capturing = field;
    this.value = '';
    this.valueBytes = [];
  }

  private finish(): void {
    const field = this.capturing;
    this.capturing = null;
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(this.valueBytes).toString('utf8'));
    } catch {
      return; // not a usable value
    }
    if (field === 'id' && (typeof v === 'string' || typeof v === 'number')) this.id ??= v;
    else if (field === 'method' && typeof v === 'string') this.method ??= v;
    else if (field === 'name' && typeof v === 'string') this.toolName ??= v;
  }
}
