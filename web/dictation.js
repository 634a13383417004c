// Dictation: the composer's microphone button, on the browser's speech recognition
// (Chrome, Edge, Safari). Where the browser has none, or refuses to make one, the button
// hides rather than offer something that cannot work. One click starts listening, the
// next stops it; only final results are handed on, so text never changes under the
// caret while someone is still speaking. What is heard never goes anywhere by itself:
// it lands in the message box, and Enter sends it as any typed message.
export function createDictation(mic, { onWords, onProblem }) {
  const Recognition = window.SpeechRecognition ?? window.webkitSpeechRecognition;
  mic.setAttribute('aria-pressed', 'false');
  if (!Recognition) {
    mic.hidden = true;
    return;
  }
  let listening = null;

  function showListening(on) {
    mic.classList.toggle('listening', on);
    mic.setAttribute('aria-pressed', String(on));
  }

  mic.addEventListener('click', () => {
    if (listening) { listening.stop(); return; }
    let rec;
    try {
      rec = new Recognition();
    } catch {
      mic.hidden = true;
      return;
    }
    rec.continuous = true;
    rec.interimResults = false;
    rec.lang = navigator.language || 'en-US';
    rec.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        if (!result.isFinal) continue;
        const words = result[0].transcript.trim();
        if (words) onWords(words);
      }
    };
    rec.onerror = (event) => {
      if (event.error === 'not-allowed' || event.error === 'service-not-allowed') onProblem('Dictation is not allowed in this browser.');
      else if (event.error !== 'no-speech' && event.error !== 'aborted') onProblem(`Dictation stopped: ${event.error}`);
    };
    rec.onend = () => {
      listening = null;
      showListening(false);
    };
    try {
      rec.start();
    } catch {
      return;
    }
    listening = rec;
    showListening(true);
  });
}
