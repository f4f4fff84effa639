// The copy buttons: shown only when this script runs (the page works without it).
"use strict";
document.querySelectorAll("button.copy").forEach(function (button) {
  button.hidden = false;
  var label = button.textContent;
  button.addEventListener("click", function () {
    var text = button.getAttribute("data-copy");
    var done = function () {
      button.textContent = button.getAttribute("data-done");
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done);
      return;
    }
    // Plain HTTP: select the command so that Ctrl-C copies it.
    var code = button.parentNode.querySelector("code");
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  });
});
