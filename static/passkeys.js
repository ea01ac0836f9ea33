// Passkeys on /me (docs/identity.md, "Passkeys"): begins a ceremony on the server, hands its
// options to the browser's WebAuthn, and sends the answer back. WebAuthn's binary fields
// travel as base64url text, as webauthn-rs writes and reads them. Without this script (or
// without WebAuthn) the page says so, and the sign-in link is the way in.
(function () {
  'use strict';
  const status = document.getElementById('passkey-status');
  const say = function (text) { if (status) { status.textContent = text; } };
  if (!window.PublicKeyCredential || !navigator.credentials) {
    document.querySelectorAll('.passkey-none').forEach(function (e) { e.hidden = false; });
    return;
  }
  document.querySelectorAll('.passkey-js').forEach(function (e) { e.hidden = false; });

  function bytes(text) {
    let b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    while (b64.length % 4) { b64 += '='; }
    return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
  }
  function text(buffer) {
    let binary = '';
    new Uint8Array(buffer).forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  async function post(path, fields) {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    if (!response.ok) {
      // An error is the pages' error page: its sentence says what went wrong.
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const sentence = page.querySelector('p.error');
      throw new Error(sentence ? sentence.textContent
        : 'Herald refused the request (' + response.status + ').');
    }
    return response.json();
  }
  function failed(error) {
    // A person who closes the browser's dialog is no failure worth a stack trace.
    say(error && error.name === 'NotAllowedError'
      ? 'No passkey was used.' : (error && error.message) || 'That did not work.');
  }

  async function register(button) {
    const csrf = button.dataset.csrf;
    say('Asking your device for a new passkey…');
    const begun = await post('/me/passkeys/begin', { csrf: csrf });
    const options = begun.options.publicKey;
    options.challenge = bytes(options.challenge);
    options.user.id = bytes(options.user.id);
    (options.excludeCredentials || []).forEach(function (c) { c.id = bytes(c.id); });
    const made = await navigator.credentials.create({ publicKey: options });
    const answer = {
      id: made.id,
      rawId: text(made.rawId),
      type: made.type,
      response: {
        attestationObject: text(made.response.attestationObject),
        clientDataJSON: text(made.response.clientDataJSON),
      },
      extensions: {},
    };
    const done = await post('/me/passkeys/finish', {
      csrf: csrf, ceremony: begun.ceremony, credential: JSON.stringify(answer),
    });
    window.location.assign(done.to);
  }

  async function signIn(button) {
    const csrf = button.dataset.csrf;
    const handle = document.getElementById('passkey-handle').value;
    say('Asking your device for its passkey…');
    const begun = await post('/me/passkeys/sign-in/begin', { csrf: csrf, handle: handle });
    const options = begun.options.publicKey;
    options.challenge = bytes(options.challenge);
    (options.allowCredentials || []).forEach(function (c) { c.id = bytes(c.id); });
    const used = await navigator.credentials.get({ publicKey: options });
    const answer = {
      id: used.id,
      rawId: text(used.rawId),
      type: used.type,
      response: {
        authenticatorData: text(used.response.authenticatorData),
        clientDataJSON: text(used.response.clientDataJSON),
        signature: text(used.response.signature),
        userHandle: used.response.userHandle ? text(used.response.userHandle) : null,
      },
      extensions: {},
    };
    const done = await post('/me/passkeys/sign-in/finish', {
      csrf: csrf, ceremony: begun.ceremony, credential: JSON.stringify(answer),
    });
    window.location.assign(done.to);
  }

  const registerButton = document.getElementById('passkey-register');
  if (registerButton) {
    registerButton.addEventListener('click', function () {
      register(registerButton).catch(failed);
    });
  }
  const signInButton = document.getElementById('passkey-sign-in');
  if (signInButton) {
    signInButton.addEventListener('click', function () {
      signIn(signInButton).catch(failed);
    });
  }
}());
