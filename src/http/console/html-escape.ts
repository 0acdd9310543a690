// Escaping for the little HTML the server writes itself (the login page): every interpolated value
// goes through `escapeHtml`. The console page is static; it renders data with DOM text nodes only.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
