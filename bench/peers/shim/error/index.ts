// Stand-in for pi-ai's src/error barrel: the schema folder only needs ValidationError,
// which enforceStrictSchema throws and the fail-open wrappers catch. The name is set so
// recorded error strings read as the real package's would.
export class ValidationError extends Error {
	constructor(message: string, options?: ErrorOptions) {
		super(message, options);
		this.name = "ValidationError";
	}
}
