// The Recorder's audio worklet (it runs on the audio thread, outside the page's bundle, so it is
// plain JavaScript loaded by its own address): every block of the microphone's first channel is
// copied to the page, which keeps the samples until the recording stops.
class PcmCapture extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (channel && channel.length) this.port.postMessage(channel.slice(0));
    return true;
  }
}

registerProcessor("specdesk-pcm-capture", PcmCapture);
