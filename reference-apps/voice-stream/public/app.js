// Streams the microphone to the voice API as PCM s16le 16 kHz in 100 ms chunks (JSON messages), shows the
// captions of every transcript, and plays the translated speech (PCM s16le 24 kHz) as it arrives.
(() => {
  'use strict';
  const SAMPLE_RATE = 16000;
  const CHUNK_SAMPLES = SAMPLE_RATE / 10;
  const SPEECH_RATE = 24000;
  const $ = (id) => document.getElementById(id);
  const state = { socket: null, capture: null, playback: null, playAt: 0 };

  function setStatus(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }

  function captionBox(language) {
    let box = $('caption-box-' + language);
    if (!box) {
      box = document.createElement('div');
      box.className = 'caption';
      box.id = 'caption-box-' + language;
      box.innerHTML = '<h2></h2><span class="concluded"></span><span class="tentative"></span>';
      box.querySelector('h2').textContent = language;
      box.querySelector('.concluded').id = 'caption-' + language;
      box.querySelector('.tentative').id = 'tentative-' + language;
      $('captions').appendChild(box);
    }
    return box;
  }

  function showTranscript(language, update) {
    const box = captionBox(language);
    for (const segment of update.concluded) box.querySelector('.concluded').textContent += segment.text;
    box.querySelector('.tentative').textContent = update.tentative.map((segment) => segment.text).join('');
  }

  function base64ToBytes(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function bytesToBase64(bytes) {
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  function playSpeech(chunk) {
    if (!state.playback) return;
    for (const element of chunk.data) {
      const bytes = base64ToBytes(element);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
      if (samples.length === 0) continue;
      const buffer = state.playback.createBuffer(1, samples.length, SPEECH_RATE);
      const channel = buffer.getChannelData(0);
      for (let i = 0; i < samples.length; i += 1) channel[i] = samples[i] / 32768;
      const source = state.playback.createBufferSource();
      source.buffer = buffer;
      source.connect(state.playback.destination);
      state.playAt = Math.max(state.playAt, state.playback.currentTime);
      source.start(state.playAt);
      state.playAt += buffer.duration;
      // How much translated speech was queued for playback (read by the end-to-end test).
      document.body.dataset.spokenMs = String(
        Math.round(Number(document.body.dataset.spokenMs || 0) + buffer.duration * 1000),
      );
    }
  }

  function onMessage(event) {
    const message = JSON.parse(event.data);
    if (message.source_transcript_update) showTranscript('en', message.source_transcript_update);
    if (message.target_transcript_update)
      showTranscript(message.target_transcript_update.language, message.target_transcript_update);
    if (message.target_media_chunk) playSpeech(message.target_media_chunk);
    if (message.error)
      setStatus(
        'Error ' + message.error.error_code + ' (' + message.error.reason_code + '): ' + message.error.error_message,
        true,
      );
    if (message.end_of_stream) setStatus('Finished.');
  }

  async function startCapture(send) {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: false },
    });
    const context = new AudioContext({ sampleRate: SAMPLE_RATE });
    await context.audioWorklet.addModule('/app/pcm-capture-worklet.js');
    const node = new AudioWorkletNode(context, 'pcm-capture');
    const pending = new Int16Array(CHUNK_SAMPLES);
    let filled = 0;
    node.port.onmessage = (event) => {
      const input = event.data;
      for (let i = 0; i < input.length; i += 1) {
        const value = Math.max(-1, Math.min(1, input[i]));
        pending[filled] = value < 0 ? value * 32768 : value * 32767;
        filled += 1;
        if (filled === CHUNK_SAMPLES) {
          send(new Uint8Array(pending.buffer.slice(0)));
          filled = 0;
        }
      }
    };
    context.createMediaStreamSource(stream).connect(node);
    return { stream, context, node };
  }

  function stopCapture() {
    if (!state.capture) return;
    state.capture.node.port.onmessage = null;
    state.capture.stream.getTracks().forEach((track) => track.stop());
    state.capture.context.close();
    state.capture = null;
  }

  async function start(event) {
    if (event) event.preventDefault();
    const key = $('api-key').value.trim();
    localStorage.setItem('voice-stream-key', key);
    const targets = Array.from(document.querySelectorAll('input[name=target]:checked')).map((input) => input.value);
    const speak = $('speak').value;
    $('captions').textContent = '';
    captionBox('en');
    targets.forEach(captionBox);
    setStatus('Requesting a session...');
    const response = await fetch('/v3/voice/realtime', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'DeepL-Auth-Key ' + key },
      body: JSON.stringify({
        source_media_content_type: 'audio/pcm;encoding=s16le;rate=16000',
        target_languages: targets,
        target_media_languages: speak ? [speak] : [],
        target_media_content_type: 'audio/pcm;encoding=s16le;rate=24000',
      }),
    });
    const session = await response.json();
    if (!response.ok) {
      setStatus('Session refused: ' + session.message, true);
      return;
    }
    state.playback = speak ? new AudioContext({ sampleRate: SPEECH_RATE }) : null;
    state.playAt = 0;
    const socket = new WebSocket(
      session.streaming_url.replace(
        /^ws:\/\/[^/]+/,
        (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host,
      ) +
        '?token=' +
        encodeURIComponent(session.token),
    );
    state.socket = socket;
    socket.onmessage = onMessage;
    socket.onclose = (closing) => {
      stopCapture();
      $('start').disabled = false;
      $('stop').disabled = true;
      if (closing.code !== 1000 && !$('status').classList.contains('error'))
        setStatus('Connection closed (' + closing.code + ').', true);
    };
    socket.onopen = async () => {
      try {
        state.capture = await startCapture((bytes) => {
          if (socket.readyState === WebSocket.OPEN)
            socket.send(JSON.stringify({ source_media_chunk: { data: bytesToBase64(bytes) } }));
        });
        setStatus('Listening...');
        $('start').disabled = true;
        $('stop').disabled = false;
      } catch (error) {
        setStatus('No microphone: ' + error.message, true);
        socket.close();
      }
    };
  }

  function stop() {
    stopCapture();
    if (state.socket && state.socket.readyState === WebSocket.OPEN)
      state.socket.send(JSON.stringify({ end_of_source_media: {} }));
    setStatus('Finishing...');
  }

  $('settings').addEventListener('submit', start);
  $('stop').addEventListener('click', stop);
  // #key=...&to=es,fr&speak=es&autostart=1 pre-fills the form (and starts): handy for demos and tests.
  const hash = new URLSearchParams(location.hash.slice(1));
  $('api-key').value = hash.get('key') || localStorage.getItem('voice-stream-key') || '';
  if (hash.get('to')) {
    const wanted = hash.get('to').split(',');
    document.querySelectorAll('input[name=target]').forEach((input) => (input.checked = wanted.includes(input.value)));
  }
  if (hash.has('speak')) $('speak').value = hash.get('speak');
  if (hash.get('autostart') === '1') start();
})();
