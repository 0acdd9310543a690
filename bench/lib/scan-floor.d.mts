export function coldLookupMs(dir: string, name: string): Promise<number>;
export function warmScanner(dir: string): { files: number; passMs(test: (text: string) => boolean): { ms: number; hits: number } };
