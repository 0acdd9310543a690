export function startHashFloor(threads?: number): Promise<{ passMs(files: string[]): Promise<number>; close(): Promise<unknown> }>;
