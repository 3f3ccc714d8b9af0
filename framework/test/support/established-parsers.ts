// Validation by the established parsers of each format, besides the project's own validator: @readme/openapi-parser
// for OpenAPI 3.1 (the schema, then the checks the schema cannot make: $refs resolve, path parameters are declared,
// operationIds are unique...) and @asyncapi/parser, the AsyncAPI initiative's own, for AsyncAPI 3.0.
import { Parser } from '@asyncapi/parser';
import { compileErrors, validate } from '@readme/openapi-parser';

/** The errors @readme/openapi-parser finds in an OpenAPI document ('' when it is valid). */
export async function openApiParserErrors(document: unknown): Promise<string> {
  const result = await validate(structuredClone(document) as never);
  return result.valid ? '' : compileErrors(result);
}

/** The diagnostics of severity error @asyncapi/parser reports for an AsyncAPI document (none: valid), and its model. */
export async function asyncApiParse(document: unknown) {
  const parser = new Parser();
  const { document: parsed, diagnostics } = await parser.parse(JSON.stringify(document));
  // Severity 0 is an error; 1-3 are warnings, information and hints (style rules, such as "add a contact").
  const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
  return { parsed, errors };
}
