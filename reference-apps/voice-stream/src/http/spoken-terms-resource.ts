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
  parseTermList,
  SPOKEN_TERMS_LIMITS,
  type SpokenTermsInfo,
  type TermList,
} from '../domain/spoken-terms/spoken-terms';
import { canonicalLanguage } from '../domain/session/languages';
import { VoiceApiError } from '../domain/voice-api-error';
import type { VoiceEngines } from '../engines/voice-engines';
import { SpokenTermsStore } from '../storage/spoken-terms-store';
import { AuthenticatedKey, DeepLKeyAuthentication } from './deepl-authorization';
import { CreateSpokenTermsDto, type TermListDto } from './dto/spoken-terms.dto';
import { VOICE_ENGINES } from './injection-tokens';
import { SPOKEN_TERMS_SCHEMAS } from './spoken-terms-schemas';

/** DeepL's Spoken Terms collection, as every answer shows one. */
export interface SpokenTermsAnswer {
  spoken_terms_id: string;
  name: string;
  term_lists: Array<{ lang: string; entry_count: number }>;
  creation_time: string;
}

function answerOf(collection: SpokenTermsInfo): SpokenTermsAnswer {
  return {
    spoken_terms_id: collection.id,
    name: collection.name,
    term_lists: collection.termLists.map((list) => ({ lang: list.lang, entry_count: list.entryCount })),
    creation_time: new Date(collection.createdAt).toISOString(),
  };
}

const notFound = (id: string) =>
  new VoiceApiError(404, 'not_found', `No Spoken Terms collection "${id.slice(0, 100)}" for this API key`);

/**
 * DeepL's Spoken Terms (`/v3/spoken-terms`): collections of words the recogniser should hear (names, product words),
 * one term list per language; create, list, get, get a list's terms, delete. Each collection belongs to the API key
 * that made it. A session request's `spoken_terms_id` adds the list of its source language to the session's
 * recogniser. Lists are for the languages the recogniser hears, and every word of every term must have a
 * pronunciation (the recogniser's `prepareVocabulary`).
 */
@Path('/v3/spoken-terms')
@Produces('application/json')
@Authenticate(DeepLKeyAuthentication)
@ApiTags('Spoken terms')
@ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
@ApiResponse(403, 'The API key is unknown or revoked (forbidden)')
@ApiResponse(503, 'The key or spoken terms store (its database) is unavailable (service_unavailable)')
@Inject
export class SpokenTermsResource {
  constructor(
    private readonly store: SpokenTermsStore,
    @inject(VOICE_ENGINES) private readonly engines: VoiceEngines,
  ) {}

  @POST
  @Consumes('application/json')
  @ApiOperation({ summary: 'Creates a Spoken Terms collection with a term list per language' })
  @ApiResponse(201, { schema: SPOKEN_TERMS_SCHEMAS.collection, description: 'Created; Location names it' })
  @ApiResponse(
    400,
    'The body is not a valid collection, a list is of a language the recogniser does not hear, or a term breaks a rule or has no pronunciation (message, detail)',
  )
  @ApiResponse(456, `The API key already has ${SPOKEN_TERMS_LIMITS.collectionsPerKey} collections (quota_exceeded)`)
  async create(
    @Context() key: AuthenticatedKey,
    @Valid @BodyParam body: CreateSpokenTermsDto,
  ): Promise<Response<SpokenTermsAnswer>> {
    const lists: TermList[] = [];
    for (const [index, list] of body.term_lists.entries()) {
      const checked = await this.termListOf(list, index);
      if (lists.some((other) => other.lang === checked.lang))
        throw new VoiceApiError(400, 'duplicate_term_list', `Two term lists for ${checked.lang}; one per language`);
      lists.push(checked);
    }
    if ((await this.store.count(key.id)) >= SPOKEN_TERMS_LIMITS.collectionsPerKey)
      throw new VoiceApiError(
        456,
        'quota_exceeded',
        `This API key already has ${SPOKEN_TERMS_LIMITS.collectionsPerKey} Spoken Terms collections; delete one first`,
      );
    const collection = await this.store.create(key.id, body.name, lists);
    return Response.status(201)
      .header('Location', `/v3/spoken-terms/${collection.id}`)
      .entity(answerOf(collection))
      .build();
  }

  @GET
  @ApiOperation({ summary: "The API key's Spoken Terms collections, without their terms" })
  @ApiResponse(200, { schema: SPOKEN_TERMS_SCHEMAS.list })
  async list(@Context() key: AuthenticatedKey): Promise<{ spoken_terms: SpokenTermsAnswer[] }> {
    return { spoken_terms: (await this.store.list(key.id)).map(answerOf) };
  }

  @GET
  @Path('/{spoken_terms_id}')
  @ApiOperation({ summary: 'One Spoken Terms collection, without its terms' })
  @ApiResponse(200, { schema: SPOKEN_TERMS_SCHEMAS.collection })
  @ApiResponse(404, 'The API key has no collection of this id (not_found)')
  async get(@Context() key: AuthenticatedKey, @PathParam('spoken_terms_id') id: string): Promise<SpokenTermsAnswer> {
    const collection = await this.store.get(key.id, id);
    if (!collection) throw notFound(id);
    return answerOf(collection);
  }

  @GET
  @Path('/{spoken_terms_id}/entries')
  @ApiOperation({ summary: "One language's terms, newline-separated" })
  @ApiResponse(200, { schema: SPOKEN_TERMS_SCHEMAS.entries })
  @ApiResponse(400, 'lang is missing (missing_parameter)')
  @ApiResponse(404, 'The API key has no collection of this id, or it has no term list for the language (not_found)')
  async entries(
    @Context() key: AuthenticatedKey,
    @PathParam('spoken_terms_id') id: string,
    // Optional for rest.uws, so that the constraint answers a missing language in the API's words.
    @QueryParam('lang', { optional: true })
    @NotEmpty({ message: 'lang is required', context: { code: 'missing_parameter' } })
    lang: string,
  ): Promise<{ lang: string; entries: string }> {
    const lists = await this.store.termLists(key.id, id);
    if (!lists) throw notFound(id);
    const wanted = canonicalLanguage(lang) ?? lang;
    const list = lists.find((candidate) => candidate.lang === wanted);
    if (!list)
      throw new VoiceApiError(404, 'not_found', `Collection "${id}" has no term list for ${wanted.slice(0, 20)}`);
    return { lang: list.lang, entries: list.terms.join('\n') };
  }

  @DELETE
  @Path('/{spoken_terms_id}')
  @ApiOperation({ summary: 'Deletes a Spoken Terms collection (sessions that already use it keep it until they end)' })
  @ApiResponse(204, 'Deleted')
  @ApiResponse(404, 'The API key has no collection of this id (not_found)')
  async delete(@Context() key: AuthenticatedKey, @PathParam('spoken_terms_id') id: string): Promise<Response<void>> {
    if (!(await this.store.delete(key.id, id))) throw notFound(id);
    return Response.noContent().build();
  }

  /** A term list of the body: a language the recogniser hears, terms by DeepL's rules, every word pronounceable. */
  private async termListOf(list: TermListDto, index: number): Promise<TermList> {
    const recognizer = this.engines.recognizer;
    const lang = canonicalLanguage(list.lang);
    if (lang === undefined || !recognizer.languages.includes(lang) || !recognizer.prepareVocabulary)
      throw new VoiceApiError(
        400,
        'unsupported_language',
        'Unsupported term list language',
        undefined,
        `term_lists[${index}] is "${list.lang.slice(0, 20)}"; the recogniser hears ${recognizer.languages.join(', ')}`,
      );
    const parsed = parseTermList(list.entries);
    if ('problem' in parsed)
      throw new VoiceApiError(
        400,
        'invalid_entries',
        'Invalid terms provided',
        undefined,
        `term_lists[${index}] (${lang}), ${parsed.problem}`,
      );
    const { unpronounceable } = await recognizer.prepareVocabulary(lang, parsed.terms);
    if (unpronounceable.length > 0 || parsed.terms.some((term) => !/[\p{L}\p{N}]/u.test(term)))
      throw new VoiceApiError(
        400,
        'invalid_entries',
        'Invalid terms provided',
        undefined,
        `term_lists[${index}] (${lang}): no pronunciation could be found for ${unpronounceable.map((word) => `"${word}"`).join(', ') || 'a term without letters or digits'}`,
      );
    return { lang, terms: parsed.terms };
  }
}
