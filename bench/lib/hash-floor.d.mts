export function startHashFloor(): Promise<{ passMs(files: string[]): Promise<number>; close(): Promise<unknown> }>;
export function hashFileSync(file: string): string;
