import type { ContentStore } from '../storage/content-store';
import type { AccessStore, GqlSchemaRecord, GqlTokenRecord } from '../storage/access-store';
import { expandScope } from './access/scope';

/** Field types the admin API edits; relations and matrix blocks go through the content import. */
const EDITABLE_FIELD_TYPES = new Set(['PlainText', 'RichText', 'Number', 'Date', 'Lightswitch']);

/** Input the admin operations refuse: `invalid` (400) or `not-found` (404), with a stable code and a message saying what was wrong. */
export class AdminInputError extends Error {
  override readonly name = 'AdminInputError';
  constructor(
    message: string,
    readonly kind: 'invalid' | 'not-found',
    readonly code: string,
  ) {
    super(message);
  }
}

const invalid = (message: string, code: string) => new AdminInputError(message, 'invalid', code);

/** A body that is a JSON object: `null`, `true` or a list would otherwise pass as an empty edit (or throw). */
function objectOf(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalid('The body must be a JSON object', 'CG_BODY');
  return body as Record<string, unknown>;
}

function idOf(text: string): number {
  if (!/^\d+$/.test(text)) throw invalid(`Invalid id "${text}"`, 'CG_BAD_ID');
  return Number(text);
}

/**
 * What the admin API does, without HTTP: schemas and tokens (through the access store) and simple content edits
 * (through the content store), each input checked before anything is written. Ids arrive as the text of the path;
 * bodies as whatever JSON the client sent. Scopes take the same shorthand as the CLI.
 */
export class AdminService {
  constructor(
    private readonly store: ContentStore,
    private readonly access: AccessStore,
  ) {}

  listSchemas(): Promise<GqlSchemaRecord[]> {
    return this.access.listSchemas();
  }

  async createSchema(body: unknown): Promise<GqlSchemaRecord> {
    const input = objectOf(body);
    if (typeof input.name !== 'string') throw invalid('"name" must be a string', 'CG_NAME');
    return this.access.createSchema(input.name, await this.scopeOf(input));
  }

  async setSchemaScope(id: string, body: unknown): Promise<GqlSchemaRecord> {
    const schemaId = idOf(id);
    return this.access.updateSchemaScope(schemaId, await this.scopeOf(objectOf(body)));
  }

  deleteSchema(id: string): Promise<void> {
    return this.access.deleteSchema(idOf(id));
  }

  listTokens(): Promise<GqlTokenRecord[]> {
    return this.access.listTokens();
  }

  /** Creates a token; its secret is in the answer once and never again (only its hash is stored). */
  async createToken(body: unknown): Promise<GqlTokenRecord & { token: string }> {
    const input = objectOf(body);
    if (typeof input.name !== 'string') throw invalid('"name" must be a string', 'CG_NAME');
    if (typeof input.schemaId !== 'number') throw invalid('"schemaId" must be a number', 'CG_SCHEMA_ID');
    if (input.expiryDate !== undefined && input.expiryDate !== null && typeof input.expiryDate !== 'string')
      throw invalid('"expiryDate" must be a date string or null', 'CG_EXPIRY');
    const { token, record } = await this.access.createToken({
      name: input.name,
      schemaId: input.schemaId,
      expiryDate: (input.expiryDate as string | null | undefined) ?? null,
      enabled: input.enabled !== false,
    });
    return { ...record, token };
  }

  setTokenEnabled(id: string, enabled: boolean): Promise<GqlTokenRecord> {
    return this.access.setTokenEnabled(idOf(id), enabled);
  }

  deleteToken(id: string): Promise<void> {
    return this.access.deleteToken(idOf(id));
  }

  /** Edits an element's title and plain field values (content changes invalidate every instance's result cache). */
  async editElement(id: string, body: unknown): Promise<void> {
    const elementId = idOf(id);
    const edit = await this.checkedEdit(elementId, objectOf(body));
    try {
      await this.store.updateFields(elementId, edit.fields, edit.title);
    } catch (error) {
      if (error instanceof Error && /^Field "|^Invalid date/.test(error.message))
        throw invalid(error.message, 'CG_FIELDS');
      throw error;
    }
  }

  async setElementEnabled(id: string, enabled: boolean): Promise<void> {
    const elementId = idOf(id);
    await this.checkedEdit(elementId, {});
    await this.store.setEnabled(elementId, enabled);
  }

  private async scopeOf(body: Record<string, unknown>): Promise<string[]> {
    if (!Array.isArray(body.scope) || body.scope.some((s) => typeof s !== 'string'))
      throw invalid('"scope" must be a list of strings, e.g. ["sections.news", "volumes.images"]', 'CG_SCOPE');
    return expandScope(body.scope as string[], await this.store.catalog());
  }

  /** Checks an element edit before anything is written: known element, text title, known scalar fields of its layout. */
  private async checkedEdit(
    id: number,
    body: Record<string, unknown>,
  ): Promise<{ title: string | undefined; fields: Record<string, unknown> }> {
    if (!(await this.store.elementExists(id)))
      throw new AdminInputError(`No element ${id}`, 'not-found', 'CG_NO_ELEMENT');
    if (body.title !== undefined && (typeof body.title !== 'string' || body.title.trim() === ''))
      throw invalid('"title" must be a non-empty string', 'CG_TITLE');
    const fields = body.fields ?? {};
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
      throw invalid('"fields" must be an object of field handles and values', 'CG_FIELDS');
    const { layoutFields } = await this.store.layoutOfElement(id);
    for (const handle of Object.keys(fields)) {
      const field = layoutFields.find((f) => f.handle === handle);
      if (!field)
        throw invalid(
          `Element ${id} has no field "${handle}"; its fields: ${layoutFields.map((f) => f.handle).join(', ') || 'none'}`,
          'CG_FIELDS',
        );
      if (!EDITABLE_FIELD_TYPES.has(field.type))
        throw invalid(`Field "${handle}" (${field.type}) cannot be edited here; use the content import`, 'CG_FIELDS');
    }
    return { title: body.title as string | undefined, fields: fields as Record<string, unknown> };
  }
}
