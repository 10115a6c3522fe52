// Stand-in for pi-ai's src/types.ts: the schema folder imports only types
// from it (Tool, TSchema), which the TS loader erases, so it stays empty.
export {};
