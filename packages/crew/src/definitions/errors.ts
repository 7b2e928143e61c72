/** A definition file that cannot be used, naming the file and, where one is at fault, the field or line. */
export class DefinitionError extends Error {
	readonly file: string;
	readonly field: string | undefined;

	constructor(file: string, message: string, field?: string) {
		super(`${file}: ${field === undefined ? "" : `field "${field}": `}${message}`);
		this.name = "DefinitionError";
		this.file = file;
		this.field = field;
	}
}
