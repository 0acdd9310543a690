// Finds the top-level "id" of a JSON-RPC message while its bytes stream past, without keeping them:
// used to answer a request that is too large to buffer. Tracks nesting and strings, so an "id" key
// inside the params is never mistaken for the request's own.

export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private token = '';
  private value = '';
  private valueBytes: number[] = [];
  private capturing = false;
  /** The id, once seen (string or number); undefined until then. */
  id: string | number | undefined;

  push(chunk: Uint8Array): void {
    if (this.id !== undefined) return;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.capturing) {
        if (this.value.startsWith('"')) {
          this.value += String.fromCharCode(c);
          this.valueBytes.push(c);
          if (this.escaped) this.escaped = false;
          else if (c === 0x5c) this.escaped = true;
          else if (c === 0x22 && this.value.length > 1) return this.finish();
          if (this.value.length > 256) this.capturing = false;
          continue;
        }
        if (c === 0x2c || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          if (this.value.length > 0) return this.finish();
          if (c === 0x2c || c === 0x7d) this.capturing = false;
          continue;
        }
        this.value += String.fromCharCode(c);
        this.valueBytes.push(c);
        if (this.value.length > 64) this.capturing = false;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        else if (this.depth === 1 && this.token.length < 16) this.token += String.fromCharCode(c);
        continue;
      }
      switch (c) {
        case 0x22:
          this.inString = true;
          this.token = '';
          break;
        case 0x7b:
        case 0x5b:
          this.depth++;
          break;
        case 0x7d:
        case 0x5d:
          this.depth--;
          break;
        case 0x3a:
          if (this.depth === 1) {
            if (this.token === 'id') {
              this.capturing = true;
              this.value = '';
              this.valueBytes = [];
            }
          }
          break;
        default:
          break;
      }
    }
  }

  private finish(): void {
    this.capturing = false;
    try {
      const v = JSON.parse(Buffer.from(this.valueBytes).toString('utf8')) as unknown;
      if (typeof v === 'string' || typeof v === 'number') this.id = v;
    } catch {
      // not a usable id
    }
  }
}
