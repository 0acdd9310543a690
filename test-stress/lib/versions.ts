// Whole-file contents the kill trials write: distinct per file and version, large enough
// (~200 KiB) that a write takes a while, so a kill can land in the middle of one.

export function versionText(file: string, version: number, lines = 3000): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) out.push(`${file} v${version} line ${i}: the quick brown fox jumps over the lazy dog`);
  return `${out.join('\n')}\n`;
}
