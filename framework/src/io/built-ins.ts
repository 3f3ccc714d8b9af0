import { globalSettings } from '../runtime/settings';
import { FormValueReader, JsonValueReader, TextValueReader } from './readers';
import { JsonResponseWriter, PlainResponseWriter } from './writers';

// The built-in media type readers and writers, registered globally once; users may replace them.
globalSettings.readers.register('application/json', new JsonValueReader());
globalSettings.readers.register('text/plain', new TextValueReader());
globalSettings.readers.register('application/x-www-form-urlencoded', new FormValueReader());
globalSettings.writers.register('application/json', new JsonResponseWriter());
globalSettings.writers.register('text/plain', new PlainResponseWriter());
