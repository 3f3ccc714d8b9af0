import { globalSettings } from './settings';
import { FormValueReader, JsonValueReader, TextValueReader } from '../io/readers';
import { JsonResponseWriter, PlainResponseWriter } from '../io/writers';

// The built-in media type readers and writers, registered globally once; users may replace them.
globalSettings.readers.register('application/json', new JsonValueReader());
globalSettings.readers.register('text/plain', new TextValueReader());
globalSettings.readers.register('application/x-www-form-urlencoded', new FormValueReader());
globalSettings.writers.register('application/json', new JsonResponseWriter());
globalSettings.writers.register('text/plain', new PlainResponseWriter());
