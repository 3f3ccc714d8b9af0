import { mkdir } from 'node:fs/promises';
import {
  ApiOperation,
  ApiResponse,
  ApiTags,
  Authenticate,
  BodyParam,
  Consumes,
  Context,
  FileBody,
  FileResponseWriter,
  GET,
  Inject,
  Path,
  PathParam,
  POST,
  Produces,
  PUT,
  QueryParam,
  Response,
  ResponseWriter,
  type FileBodyAdmission,
  HttpServerRequest,
  RoutingContext,
} from 'rest.uws';
import { inject } from 'tsyringe';
import { JobService } from '../domain/jobs/job-service';
import type { VoiceCapabilities } from '../domain/session/session-request';
import { VoiceApiError } from '../domain/voice-api-error';
import { signatureMatches, signatureOf, type StoredJob } from '../storage/job-store';
import { AuthenticatedKey, DeepLKeyAuthentication } from './deepl-authorization';
import { SESSION_RESOURCE_SETTINGS, VOICE_CAPABILITIES } from './injection-tokens';
import { httpBaseUrl } from './streaming-url';
import type { SessionResourceSettings } from './voice-session-resource';

export const JOBS_PATH = '/v1/jobs/voice/translate';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const jobNotFound = () => new VoiceApiError(404, 'not_found', 'No such job for this API key (unknown, or expired)');

/** The signature an upload or download presents: `Authorization: DeepL-Signature <s>`, or `?signature=` of a signed URL. */
function presentedSignature(request: HttpServerRequest): string {
  const header = request.getHeader('authorization');
  const match = header === undefined ? null : /^\s*DeepL-Signature\s+(\S+)\s*$/i.exec(header);
  const query = request.getQueryParam('signature');
  const signature = match?.[1] ?? query;
  if (signature === undefined || signature === '')
    throw new VoiceApiError(
      401,
      'unauthorized',
      'Send the signature of the job as "Authorization: DeepL-Signature <signature>" (or use the signed URL)',
    );
  return signature;
}

/** Admits an upload before a byte is stored: a job awaiting its file, the right signature, no more than announced. */
@Inject
export class UploadAdmission implements FileBodyAdmission {
  constructor(private readonly jobs: JobService) {}

  async admit(ctx: RoutingContext): Promise<number> {
    const signature = presentedSignature(ctx.request);
    const id = ctx.request.getParam('job_id') ?? '';
    const job = UUID.test(id) ? await this.jobs.store.find(id) : undefined;
    if (!job) throw new VoiceApiError(404, 'not_found', 'No such job (unknown, or its upload window closed)');
    if (!signatureMatches(job, 'upload', signature))
      throw new VoiceApiError(403, 'forbidden', 'The signature is not the upload signature of this job');
    if (job.status !== 'pending')
      throw new VoiceApiError(409, 'already_uploaded', 'The source file of this job was already uploaded');
    await mkdir(this.jobs.folderOf(job.id), { recursive: true });
    return job.request.source_file.content_length;
  }
}

/** Sends a result file from the jobs' folder (the app's `staticFiles` root), never to be kept by shared caches. */
export class JobResultWriter extends FileResponseWriter {
  constructor() {
    super({ cacheControl: 'private, no-store', index: false });
  }
}

/** DeepL's `JobStatusResponse`, with this server's `progress` beside it. */
export interface JobStatusAnswer {
  job_id: string;
  product: 'voice';
  operation: 'translate';
  created_at: string;
  updated_at: string;
  usage: { storage_used: number };
  source_file: StoredJob['request']['source_file'];
  parameters: StoredJob['request']['parameters'];
  targets: StoredJob['request']['targets'];
  results: Array<{
    status: string;
    download_url?: string;
    signature?: string;
    signed_download_url?: string;
    error?: { message: string };
  }>;
  progress: { percent: number; processed_ms: number; duration_ms: number | null };
  expires_at: string;
}

const wantsSignedUrl = (include: string | undefined, request: HttpServerRequest) =>
  include === 'signed_url' || /(?:^|&)include=signed_url(?:&|$)/.test(request.query());

/**
 * DeepL's Voice Translate Job API: create a job (file metadata and targets) and get an upload URL with its
 * signature; upload the file (streamed to disk); poll the job's status; download each target's result with its own
 * signature. Jobs belong to the API key that created them (another key's job is "not found").
 */
@Path(JOBS_PATH)
@Produces('application/json')
@ApiTags('Voice translate jobs')
@Inject
export class JobResource {
  constructor(
    private readonly jobs: JobService,
    @inject(VOICE_CAPABILITIES) private readonly capabilities: VoiceCapabilities,
    @inject(SESSION_RESOURCE_SETTINGS) private readonly settings: SessionResourceSettings,
  ) {}

  @POST
  @Consumes('application/json')
  @Authenticate(DeepLKeyAuthentication)
  @ApiOperation({ summary: 'Creates a voice translation job: its id, upload URL and upload signature' })
  @ApiResponse(201, 'Created: job_id, upload_url, signature (and signed_upload_url with ?include=signed_url)')
  @ApiResponse(400, 'The body is not a valid job request, or names what this server cannot do (invalid_request)')
  @ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
  @ApiResponse(403, 'The API key is unknown or revoked (forbidden)')
  @ApiResponse(429, 'The API key has its maximum of unfinished jobs (too_many_jobs)')
  async create(
    @Context() key: AuthenticatedKey,
    @Context() request: HttpServerRequest,
    @QueryParam('include', { optional: true }) include: string | undefined,
    @BodyParam body: unknown,
  ): Promise<Response<Record<string, string>>> {
    const job = await this.jobs.create(key.id, body, this.capabilities);
    const uploadUrl = `${this.base(request)}${JOBS_PATH}/${job.id}/source`;
    const signature = signatureOf(job, 'upload');
    return Response.status(201)
      .header('Location', `${JOBS_PATH}/${job.id}`)
      .entity({
        job_id: job.id,
        upload_url: uploadUrl,
        signature,
        ...(wantsSignedUrl(include, request)
          ? { signed_upload_url: `${uploadUrl}?signature=${encodeURIComponent(signature)}` }
          : {}),
      })
      .build();
  }

  @PUT
  @Path('/:job_id/source')
  @FileBody({ maxSize: Number.MAX_SAFE_INTEGER, admission: UploadAdmission })
  @ApiOperation({ summary: 'Uploads the source audio file of a job (Authorization: DeepL-Signature <signature>)' })
  @ApiResponse(204, 'Stored: the job is queued')
  @ApiResponse(
    400,
    'The body is not the announced size (size_mismatch), not audio of the announced type (invalid_audio), or longer than this server takes (audio_too_long)',
  )
  @ApiResponse(401, 'No signature (unauthorized)')
  @ApiResponse(403, 'The signature is not the upload signature of this job (forbidden)')
  @ApiResponse(404, 'No such job, or its upload window closed (not_found)')
  @ApiResponse(409, 'The file was already uploaded (already_uploaded)')
  @ApiResponse(413, 'The body is larger than the announced content_length (payload_too_large)')
  async upload(@PathParam('job_id') id: string, @Context() ctx: RoutingContext): Promise<Response<void>> {
    const [file] = ctx.fileUploads();
    await this.jobs.acceptUpload(id, file);
    return Response.status(204).build();
  }

  @GET
  @Path('/:job_id')
  @Authenticate(DeepLKeyAuthentication)
  @ApiOperation({ summary: "A job's status: each target's result, download URLs of the finished ones, progress" })
  @ApiResponse(200, "DeepL's JobStatusResponse, with progress and expires_at")
  @ApiResponse(401, 'No Authorization header, or not "DeepL-Auth-Key <key>" (unauthorized)')
  @ApiResponse(403, 'The API key is unknown or revoked (forbidden)')
  @ApiResponse(404, 'No such job for this API key, or it expired (not_found)')
  async status(
    @Context() key: AuthenticatedKey,
    @Context() request: HttpServerRequest,
    @PathParam('job_id') id: string,
    @QueryParam('include', { optional: true }) include: string | undefined,
  ): Promise<JobStatusAnswer> {
    const job = UUID.test(id) ? await this.jobs.store.findOwned(key.id, id) : undefined;
    if (!job) throw jobNotFound();
    const signed = wantsSignedUrl(include, request);
    const base = `${this.base(request)}${JOBS_PATH}/${job.id}/results`;
    const finished = job.status === 'complete' || job.status === 'failed';
    return {
      job_id: job.id,
      product: 'voice',
      operation: 'translate',
      created_at: new Date(job.createdAt).toISOString(),
      updated_at: new Date(job.updatedAt).toISOString(),
      usage: { storage_used: job.storageUsed },
      source_file: job.request.source_file,
      parameters: job.request.parameters,
      targets: job.request.targets,
      results: job.request.targets.map((_target, index) => {
        const result = finished ? job.results[index] : { status: job.status };
        if (result.status === 'failed')
          return { status: 'failed', error: { message: result.error ?? job.error ?? 'failed' } };
        if (result.status !== 'complete' && result.status !== 'downloaded') return { status: result.status };
        const signature = signatureOf(job, `download:${index}`);
        const url = `${base}/${index}`;
        return {
          status: result.status,
          download_url: url,
          signature,
          ...(signed ? { signed_download_url: `${url}?signature=${encodeURIComponent(signature)}` } : {}),
        };
      }),
      progress: {
        percent:
          job.status === 'complete'
            ? 100
            : job.durationMs
              ? Math.min(99, Math.floor((job.processedMs / job.durationMs) * 100))
              : 0,
        processed_ms: job.processedMs,
        duration_ms: job.durationMs,
      },
      expires_at: new Date(job.expiresAt).toISOString(),
    };
  }

  @GET
  @Path('/:job_id/results/:index')
  @Produces('*/*')
  @ResponseWriter(JobResultWriter)
  @ApiOperation({ summary: "Downloads a target's result (Authorization: DeepL-Signature <its signature>)" })
  @ApiResponse(200, 'The result: text/plain, application/x-subrip or the audio type of the target')
  @ApiResponse(401, 'No signature (unauthorized)')
  @ApiResponse(403, 'The signature is not the one of this result (forbidden)')
  @ApiResponse(404, 'No such job or result, not finished, or expired (not_found)')
  async download(
    @PathParam('job_id') id: string,
    @PathParam('index') index: string,
    @Context() ctx: RoutingContext,
  ): Promise<string> {
    const signature = presentedSignature(ctx.request);
    const job = UUID.test(id) ? await this.jobs.store.find(id) : undefined;
    const position = /^\d{1,4}$/.test(index) ? Number(index) : -1;
    if (!job || position < 0 || position >= job.request.targets.length)
      throw new VoiceApiError(404, 'not_found', 'No such job result (unknown, or expired)');
    if (!signatureMatches(job, `download:${position}`, signature))
      throw new VoiceApiError(403, 'forbidden', 'The signature is not the download signature of this result');
    const result = job.results[position];
    if (job.status !== 'complete' || (result.status !== 'complete' && result.status !== 'downloaded'))
      throw new VoiceApiError(404, 'not_found', `The result is not ready (the target is ${result.status})`);
    await this.jobs.store.markDownloaded(job.id, position);
    const type = job.request.targets[position].type;
    ctx.response.putHeader(
      'Content-Type',
      type === 'text/plain' || type === 'application/x-subrip' ? `${type}; charset=utf-8` : type,
    );
    return this.jobs.relativeResultPath(job.id, position);
  }

  private base(request: HttpServerRequest): string {
    return httpBaseUrl(request, this.settings.publicBaseUrl, this.settings.fallbackHost());
  }
}
