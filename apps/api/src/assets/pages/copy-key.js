// The Copy button of the enrollment key (pages/enrollment-section.ts), sent inline under the page's
// nonce. Shows the button (hidden without script) and copies the unbroken key of #secret; where the
// Clipboard API is missing (plain http) it copies the selected key instead.
// ES5 on purpose: the page works without script, and an older browser should get the button rather than
// a syntax error.
/* eslint no-var: "off" */
(function () {
  var button = document.getElementById('copy-key'),
    key = document.getElementById('secret'),
    groups = document.getElementById('secret-groups'),
    status = document.getElementById('copy-status');
  if (!button || !key) return;
  var label = button.querySelector('span'),
    idle = label.textContent,
    timer;
  function done() {
    label.textContent = button.getAttribute('data-copied');
    button.classList.add('done');
    status.textContent = button.getAttribute('data-status');
    clearTimeout(timer);
    timer = setTimeout(function () {
      label.textContent = idle;
      button.classList.remove('done');
      status.textContent = '';
    }, 2500);
  }
  function fallback() {
    var range = document.createRange(),
      selection = window.getSelection();
    range.selectNodeContents(groups);
    selection.removeAllRanges();
    selection.addRange(range);
    try {
      if (document.execCommand('copy')) done();
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- ES5 has no catch without a binding
    } catch (e) {
      /* the key stays selected */
    }
  }
  button.addEventListener('click', function () {
    var text = key.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  });
  button.hidden = false;
})();
