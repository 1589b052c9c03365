// A job's progress page: asks the job's status every second (poll.js) and moves the bar and
// its line; when the job has finished, the page loads again and shows the result (or goes on
// to the page the job made).
(function () {
  "use strict";

  var job = document.getElementById("job");
  if (!job || !job.dataset.status || !window.skatligaPoll) return;
  var bar = document.getElementById("job-bar");
  var text = document.getElementById("job-text");

  window.skatligaPoll(job.dataset.status, null, 1, null, function (status) {
    bar.value = status.percent;
    bar.textContent = status.percent + " %";
    text.textContent = status.text;
    if (status.finished) window.location.reload();
  });
})();
