// The texts the durable history has seen, by SHA-256 (content never changes under a hash), kept up
// to a number of characters, least recently stored dropped first.

export class TextCache {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(sha: string): string | undefined {
    return this.texts.get(sha);
  }

  has(sha: string): boolean {
    return this.texts.has(sha);
  }

  set(sha: string, text: string): void {
    if (this.texts.has(sha)) this.texts.delete(sha);
    else this.chars += text.length;
    this.texts.set(sha, text);
    // within the budget (the common case): no iterator over the cache per text stored
    if (this.chars <= this.maxChars) return;
    for (const [k, v] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(k);
      this.chars -= v.length;
    }
  }
}
