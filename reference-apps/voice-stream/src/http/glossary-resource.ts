import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  Authenticate,
  BodyParam,
  Consumes,
  Context,
  DELETE,
  GET,
  Inject,
  NotEmpty,
  Path,
  PathParam,
  POST,
  Produces,
  QueryParam,
  Response,
  Valid,
} from 'rest.uws';
import { inject } from 'tsyringe';
import {
  GLOSSARY_LIMITS,
  glossaryPairs,
  type GlossaryDictionary,
  type GlossaryInfo,
} from '../domain/glossary/glossary';
import { entriesAsTsv, parseGlossaryEntries } from '../domain/glossary/glossary-entries';
import type { VoiceCapabilities } from '../domain/session/session-request';
import { VoiceApiError } from '../domain/voice-api-error';
import { GlossaryStore } from '../storage/glossary-store';
import { AuthenticatedKey, DeepLKeyAuthentication } from './deepl-authorization';
import { CreateGlossaryDto, type GlossaryDictionaryDto } from './dto/glossary.dto';
import { GLOSSARY_SCHEMAS } from './glossary-schemas';
import { VOICE_CAPABILITIES } from './injection-tokens';

/** DeepL's MultilingualGlossary, as every glossary answer shows one. */
export interface GlossaryAnswer {
  glossary_id: string;
  name: string;
  dictionaries: Array<{ source_lang: string; target_lang: string; entry_count: number }>;
  creation_time: string;
}

function answerOf(glossary: GlossaryInfo): GlossaryAnswer {
  return {
    glossary_id: glossary.id,
    name: glossary.name,
    dictionaries: glossary.dictionaries.map((dictionary) => ({
      source_lang: dictionary.sourceLang,
      target_lang: dictionary.targetLang,
      entry_count: dictionary.entryCount,
    })),
    creation_time: new Date(glossary.createdAt).toISOString(),
  };
}

const notFound = (id: string) =>
  new VoiceApiError(404, 'not_found', `No glossary "${id.slice(0, 100)}" for this API key`);

/**
 * DeepL's v3 glossaries (`/v3/glossaries`): create with dictionaries, list, get, get a dictionary's entries, delete;
 * each glossary belongs to the API key that made it (another key's is "not found"). Dictionaries may be made for the
 * language pairs this server translates (English to the base language of each translation target); a glossary given
 * as `glossary_id` in a session request makes its source phrases come out as its target phrases.
 */
@Path('/v3/glossaries')
@Produces('application/json')
@Authenticate(DeepLKeyAuthentication)
@ApiTags('Glossaries')
@ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
@ApiResponse(403, 'The API key is unknown or revoked (forbidden)')
@ApiResponse(503, 'The key or glossary store (its database) is unavailable (service_unavailable)')
@Inject
export class GlossaryResource {
  private readonly pairs: Map<string, string[]>;

  constructor(
    private readonly store: GlossaryStore,
    @inject(VOICE_CAPABILITIES) capabilities: VoiceCapabilities,
  ) {
    this.pairs = glossaryPairs(capabilities);
  }

  @POST
  @Consumes('application/json')
  @ApiOperation({ summary: 'Creates a glossary with one or more dictionaries' })
  @ApiResponse(201, { schema: GLOSSARY_SCHEMAS.glossary, description: 'Created; Location names the glossary' })
  @ApiResponse(
    400,
    'The body is not a valid glossary, a dictionary is of a pair this server does not translate, or its entries break a rule (message, detail)',
  )
  @ApiResponse(456, `The API key already has ${GLOSSARY_LIMITS.glossariesPerKey} glossaries (quota_exceeded)`)
  async create(
    @Context() key: AuthenticatedKey,
    @Valid @BodyParam body: CreateGlossaryDto,
  ): Promise<Response<GlossaryAnswer>> {
    const dictionaries = body.dictionaries.map((dictionary, index) => this.dictionaryOf(dictionary, index));
    const seen = new Set<string>();
    for (const dictionary of dictionaries) {
      const pair = `${dictionary.sourceLang}-${dictionary.targetLang}`;
      if (seen.has(pair))
        throw new VoiceApiError(
          400,
          'duplicate_dictionary',
          `Two dictionaries for ${pair}; a glossary has one per pair`,
        );
      seen.add(pair);
    }
    if ((await this.store.count(key.id)) >= GLOSSARY_LIMITS.glossariesPerKey)
      throw new VoiceApiError(
        456,
        'quota_exceeded',
        `This API key already has ${GLOSSARY_LIMITS.glossariesPerKey} glossaries; delete one first`,
      );
    const glossary = await this.store.create(key.id, body.name, dictionaries);
    return Response.status(201).header('Location', `/v3/glossaries/${glossary.id}`).entity(answerOf(glossary)).build();
  }

  @GET
  @ApiOperation({ summary: "The API key's glossaries, without their entries" })
  @ApiResponse(200, { schema: GLOSSARY_SCHEMAS.list })
  async list(@Context() key: AuthenticatedKey): Promise<{ glossaries: GlossaryAnswer[] }> {
    return { glossaries: (await this.store.list(key.id)).map(answerOf) };
  }

  @GET
  @Path('/{glossary_id}')
  @ApiOperation({ summary: 'One glossary, without its entries' })
  @ApiResponse(200, { schema: GLOSSARY_SCHEMAS.glossary })
  @ApiResponse(404, 'The API key has no glossary of this id (not_found)')
  async get(@Context() key: AuthenticatedKey, @PathParam('glossary_id') id: string): Promise<GlossaryAnswer> {
    const glossary = await this.store.get(key.id, id);
    if (!glossary) throw notFound(id);
    return answerOf(glossary);
  }

  @GET
  @Path('/{glossary_id}/entries')
  @ApiOperation({ summary: "One dictionary's entries, as TSV" })
  @ApiResponse(200, { schema: GLOSSARY_SCHEMAS.entries })
  @ApiResponse(400, 'source_lang or target_lang is missing (missing_parameter)')
  @ApiResponse(404, 'The API key has no glossary of this id, or it has no dictionary for the pair (not_found)')
  async entries(
    @Context() key: AuthenticatedKey,
    @PathParam('glossary_id') id: string,
    // Optional for rest.uws, so that the constraint answers a missing language in the API's words.
    @QueryParam('source_lang', { optional: true })
    @NotEmpty({ message: 'source_lang is required', context: { code: 'missing_parameter' } })
    sourceLang: string,
    @QueryParam('target_lang', { optional: true })
    @NotEmpty({ message: 'target_lang is required', context: { code: 'missing_parameter' } })
    targetLang: string,
  ): Promise<{ dictionaries: Array<Record<string, string>> }> {
    const dictionaries = await this.store.dictionaries(key.id, id);
    if (!dictionaries) throw notFound(id);
    const [source, target] = [sourceLang.toLowerCase(), targetLang.toLowerCase()];
    const dictionary = dictionaries.find((d) => d.sourceLang === source && d.targetLang === target);
    if (!dictionary)
      throw new VoiceApiError(404, 'not_found', `Glossary "${id}" has no dictionary for ${source}-${target}`);
    return {
      dictionaries: [
        { source_lang: source, target_lang: target, entries: entriesAsTsv(dictionary.entries), entries_format: 'tsv' },
      ],
    };
  }

  @DELETE
  @Path('/{glossary_id}')
  @ApiOperation({ summary: 'Deletes a glossary (sessions that already use it keep it until they end)' })
  @ApiResponse(204, 'Deleted')
  @ApiResponse(404, 'The API key has no glossary of this id (not_found)')
  async delete(@Context() key: AuthenticatedKey, @PathParam('glossary_id') id: string): Promise<Response<void>> {
    if (!(await this.store.delete(key.id, id))) throw notFound(id);
    return Response.noContent().build();
  }

  /** A dictionary of the body: a pair this server translates, and entries by DeepL's rules. */
  private dictionaryOf(dictionary: GlossaryDictionaryDto, index: number): GlossaryDictionary {
    const sourceLang = dictionary.source_lang.toLowerCase();
    const targetLang = dictionary.target_lang.toLowerCase();
    const targets = this.pairs.get(sourceLang);
    if (!targets?.includes(targetLang)) {
      const offered = [...this.pairs].flatMap(([source, list]) => list.map((target) => `${source}-${target}`));
      throw new VoiceApiError(
        400,
        'unsupported_language_pair',
        'Unsupported glossary language pair',
        undefined,
        `dictionaries[${index}] is ${sourceLang}-${targetLang}; this server translates ${offered.join(', ')}`,
      );
    }
    const parsed = parseGlossaryEntries(dictionary.entries, dictionary.entries_format ?? 'tsv', {
      sourceLang,
      targetLang,
    });
    if ('problem' in parsed)
      throw new VoiceApiError(
        400,
        'invalid_entries',
        'Invalid glossary entries provided',
        undefined,
        `dictionaries[${index}] (${sourceLang}-${targetLang}), ${parsed.problem}`,
      );
    return { sourceLang, targetLang, entries: parsed.entries };
  }
}
