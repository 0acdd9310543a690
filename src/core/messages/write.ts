// Wire text of writes (spec/hashline.md, "Write"), shared by fs_write, fs_edit and fs_ast_edit.

export function generatedRefusal(path: string, marker: string): string {
  return `refusing to modify \`${path}\`: its header marks it as auto-generated (\`${marker}\`). Generated files are owned by a tool — your change would be overwritten on the next generation run. Edit the generator instead, or remove the marker from the file to force the write.`;
}
