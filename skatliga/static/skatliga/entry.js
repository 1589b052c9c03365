// The score sheet's entry row: keyboard shortcuts, and the server's live preview.
// Every value, verdict and total comes from the server (the rules engine); this file only
// sends the row as typed and shows what comes back.
(function () {
  "use strict";

  var form = document.getElementById("entry");
  var table = document.querySelector("table.list");

  // Saved rows open for correction on click.
  if (table) {
    table.addEventListener("click", function (event) {
      if (event.target.closest("a")) return;
      var row = event.target.closest("tr[data-href]");
      if (row) window.location.href = row.getAttribute("data-href");
    });
  }

  // Destructive forms and buttons ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (confirmForm) {
    confirmForm.addEventListener("submit", function (event) {
      if (!window.confirm(confirmForm.getAttribute("data-confirm"))) event.preventDefault();
    });
  });
  document.querySelectorAll("button[data-confirm]").forEach(function (button) {
    button.addEventListener("click", function (event) {
      if (!window.confirm(button.getAttribute("data-confirm"))) event.preventDefault();
    });
  });

  // Nothing the keyboard reaches may end up beneath a sticky bar (the entry strip on a laptop,
  // the save bar on a phone): scroll it above.
  function stickyBars() {
    var bars = [];
    var entryForm = document.getElementById("entry");
    if (entryForm && window.getComputedStyle(entryForm).position === "sticky") bars.push(entryForm);
    var foot = document.querySelector(".entry-foot");
    if (foot && window.getComputedStyle(foot).position === "sticky") bars.push(foot);
    return bars;
  }
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (!target || !target.getBoundingClientRect) return;
    // Only a control is scrolled clear of the bars: a click on a list's row focuses its
    // scrollable wrapper, and moving the page under the pointer would lose the click.
    if (!target.matches("input, select, textarea, button, a[href]")) return;
    stickyBars().forEach(function (bar) {
      if (bar.contains(target)) return;
      var box = bar.getBoundingClientRect();
      var rect = target.getBoundingClientRect();
      if (rect.bottom > box.top - 4 && rect.top < box.bottom) {
        window.scrollBy(0, rect.bottom - box.top + 12);
      }
    });
  });

  if (!form) return;

  var previewUrl = form.getAttribute("data-preview");
  var number = form.getAttribute("data-number");
  var saveButton = document.getElementById("entry-save");
  var valueOut = document.getElementById("entry-value");
  var verdictOut = document.getElementById("entry-verdict");
  var breakdownOut = document.getElementById("entry-breakdown");
  var cardsOut = document.getElementById("cards-matadors");
  var editingRow = table ? table.querySelector('tr[data-number="' + number + '"]') : null;
  // A row saved in place (table-queue.js): its row and the next are new, the form types the
  // next.
  form.addEventListener("entry:saved", function () {
    number = form.getAttribute("data-number");
    editingRow = table.querySelector('tr[data-number="' + number + '"]');
    sequence++; // a preview still on its way is of the row saved
    attempted = false;
    touched = new Set();
    refusals = {};
    showProblems([]);
    // The bar under the form explains the row being typed, not the one saved.
    showValue({ ok: false, problems: [], matadors: null });
    form.removeAttribute("data-preview-state");
  });
  var touched = new Set();
  var attempted = form.classList.contains("is-bound");
  var timer = null;
  var sequence = 0;
  // Why a typed key picked nothing, by field: kept until the field changes, so that a preview
  // answering later does not wipe it.
  var refusals = {};
  var OUTCOME = ["card_points", "tricks", "won", "level"];

  function submitRow() {
    if (form.requestSubmit) form.requestSubmit(saveButton);
    else saveButton.click();
  }

  // A key that names an option which cannot be chosen (the dealer who sits out) says why.
  function explainDisabled(select, typed, key) {
    var text = select.getAttribute("data-disabled-message");
    if (!text) return;
    var named = Array.prototype.some.call(select.options, function (option) {
      var keys = (option.getAttribute("data-keys") || "").split(" ");
      return option.disabled && (keys.indexOf(typed) !== -1 || keys.indexOf(key) !== -1);
    });
    if (!named) return;
    refusals[select.name] = text;
    showRefusal(select.name);
  }

  function showRefusal(name) {
    var slot = form.querySelector('[data-error-for="' + name + '"]');
    if (!slot) return;
    slot.textContent = refusals[name];
    var box = slot.closest(".f");
    if (box) box.classList.add("has-error");
  }

  // Selects: typed keys pick options (data-keys: "k c 12"); Enter saves.
  form.querySelectorAll("select").forEach(function (select) {
    var keyed = select.querySelector("option[data-keys]") !== null;
    var buffer = "";
    var last = 0;
    function find(typed) {
      var options = select.options;
      for (var i = 0; i < options.length; i++) {
        var keys = (options[i].getAttribute("data-keys") || "").split(" ");
        if (!options[i].disabled && keys.indexOf(typed) !== -1) return options[i];
      }
      return null;
    }
    select.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        submitRow();
        return;
      }
      if (!keyed || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key.length !== 1 || event.key === " ") return;
      var key = event.key.toLowerCase();
      var now = Date.now();
      buffer = (now - last < 900 ? buffer : "") + key;
      last = now;
      var option = find(buffer);
      if (!option && buffer.length > 1) {
        option = find(key);
        if (option) buffer = key;
      }
      event.preventDefault();
      if (option && select.value !== option.value) {
        select.value = option.value;
        select.dispatchEvent(new Event("change", { bubbles: true }));
      } else if (!option) {
        explainDisabled(select, buffer, key);
      }
    });
  });

  // Checkboxes: Enter saves too (Space ticks).
  form.querySelectorAll('input[type="checkbox"]').forEach(function (box) {
    box.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        submitRow();
      }
    });
  });

  // Esc leaves correction mode, wherever the focus is (but not from an open dialog).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    var cancel = form.querySelector(".entry-cancel");
    if (cancel) window.location.href = cancel.href;
  });

  form.addEventListener("submit", function () {
    attempted = true;
  });

  function markPassed() {
    var declarer = form.elements.declarer;
    form.classList.toggle("is-passed", !!declarer && declarer.value === "0");
    form.classList.toggle("is-ramsch", !!declarer && declarer.value === "R");
  }

  // The server reads the notation (forms/notation.py) and answers with the fields it sets:
  // they are filled in as typed. A field changed by hand afterwards takes over from it.
  var notation = form.elements.notation;
  var notationFields = {};

  function fillFromNotation(fields) {
    notationFields = fields || {};
    Object.keys(notationFields).forEach(function (name) {
      var field = form.elements[name];
      if (!field) return;
      if (field.type === "checkbox") field.checked = notationFields[name] === true;
      else field.value = notationFields[name];
    });
    markPassed();
  }

  function schedule(event) {
    if (notation && event && event.target && event.target !== notation &&
        Object.prototype.hasOwnProperty.call(notationFields, event.target.name)) {
      notation.value = "";
      notationFields = {};
    }
    if (event && event.target && event.target.name) {
      touched.add(event.target.name);
      if (refusals[event.target.name]) {
        delete refusals[event.target.name];
        var slot = form.querySelector('[data-error-for="' + event.target.name + '"]');
        if (slot) {
          slot.textContent = "";
          slot.closest(".f").classList.remove("has-error");
        }
      }
    }
    markPassed();
    window.clearTimeout(timer);
    timer = window.setTimeout(preview, 120);
  }
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  form.addEventListener("focusout", function (event) {
    if (event.target && event.target.name && event.target.value !== "") {
      touched.add(event.target.name);
    }
  });

  function visible(field) {
    if (attempted) return true;
    if (field === null || field === "__all__") {
      return OUTCOME.some(function (name) { return touched.has(name); });
    }
    return touched.has(field);
  }

  function showProblems(problems) {
    form.querySelectorAll("[data-error-for]").forEach(function (slot) {
      slot.textContent = "";
    });
    form.querySelectorAll(".f").forEach(function (box) {
      box.classList.remove("has-error", "has-warning");
      var control = box.querySelector("input, select");
      if (control) {
        control.removeAttribute("aria-invalid");
        control.removeAttribute("aria-describedby");
      }
    });
    problems.forEach(function (problem) {
      if (!visible(problem.field)) return;
      var slot = form.querySelector('[data-error-for="' + (problem.field || "__all__") + '"]');
      if (!slot) slot = form.querySelector('[data-error-for="__all__"]');
      var note = document.createElement("span");
      note.setAttribute("data-code", problem.code);
      note.textContent = problem.message;
      if (problem.warning) note.className = "warning";
      slot.appendChild(note);
      if (problem.code === "outcome_missing") {
        // "Ergebnis fehlt" concerns Augen, Stiche and Ergebnis: tie it to each of them.
        ["card_points", "tricks", "won"].forEach(function (name) {
          var control = form.elements[name];
          if (!control) return;
          control.setAttribute("aria-invalid", "true");
          control.setAttribute("aria-describedby", slot.id);
        });
      }
      var box = slot.closest(".f");
      if (box) {
        box.classList.add(problem.warning ? "has-warning" : "has-error");
        var control = box.querySelector("input, select");
        if (control && !problem.warning) {
          control.setAttribute("aria-invalid", "true");
          control.setAttribute("aria-describedby", slot.id);
        }
      }
    });
    Object.keys(refusals).forEach(showRefusal);
  }

  function showValue(data) {
    valueOut.classList.remove("won", "lost");
    if (!data.ok) {
      // Say what keeps the row from a value ("Reizwert fehlt."), typed there or not.
      var first = (data.problems || []).filter(function (p) { return !p.warning; })[0];
      valueOut.textContent = "–";
      verdictOut.textContent = first ? first.message : "";
      breakdownOut.textContent = "";
    } else if (data.passed) {
      valueOut.textContent = "0";
      verdictOut.textContent = form.getAttribute("data-word-passed");
      breakdownOut.textContent = "";
    } else {
      valueOut.textContent = data.entry;
      valueOut.classList.add(data.won ? "won" : "lost");
      var words = [form.getAttribute(data.won ? "data-word-won" : "data-word-lost")];
      if (data.overbid) words.push(form.getAttribute("data-word-overbid"));
      verdictOut.textContent = words.join(", ");
      breakdownOut.textContent = data.breakdown;
    }
    if (cardsOut) {
      cardsOut.textContent = data.matadors === null ? "" : (data.matadors > 0 ? "+" : "") + data.matadors;
    }
  }

  // A figure as the server writes it (entries.plain): a typographic minus, never a hyphen.
  function figure(number) {
    return String(number).replace("-", "\u2212");
  }

  function showSheet(data) {
    if (!table) return;
    table.querySelectorAll("tbody tr[data-number]").forEach(function (row) {
      var running = data.running[row.getAttribute("data-number")];
      row.querySelectorAll("td.c-total").forEach(function (cell) {
        var seat = Number(cell.getAttribute("data-seat"));
        var text = running ? figure(running[seat - 1]) : "";
        if (cell.textContent !== text) {
          cell.textContent = text;
          if (row !== editingRow) {
            cell.classList.remove("changed");
            void cell.offsetWidth;
            cell.classList.add("changed");
          }
        }
        if (row === editingRow) {
          cell.classList.toggle("is-declarer", data.ok && data.declarer === seat);
        }
      });
    });
    if (editingRow) {
      var value = editingRow.querySelector("td.c-value");
      if (value) {
        value.textContent = data.ok ? data.entry : "";
        value.classList.toggle("won", !!(data.ok && data.won));
        value.classList.toggle("lost", !!(data.ok && !data.passed && !data.won));
      }
    }
    var entries = document.getElementById("entries-total");
    if (entries) entries.textContent = data.entries_total;
    document.querySelectorAll("[data-summary]").forEach(function (cell) {
      var column = data.summary[Number(cell.getAttribute("data-seat")) - 1];
      if (column) cell.textContent = figure(column[cell.getAttribute("data-summary")]);
    });
  }

  // keepErrors: the first preview after a failed save shows the value and the totals but
  // leaves the errors the server found (some, like a missing reason, only the save sees).
  function preview(keepErrors) {
    var mine = ++sequence;
    form.classList.add("is-previewing");
    fetch(previewUrl, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        if (mine !== sequence || !data) return;
        form.classList.remove("is-previewing");
        form.setAttribute("data-preview-state", data.ok ? "ok" : "problems");
        if (notation && notation.value.trim() && data.fields) fillFromNotation(data.fields);
        showValue(data);
        if (keepErrors !== true) showProblems(data.problems);
        showSheet(data);
      })
      .catch(function () {
        form.classList.remove("is-previewing");
      });
  }

  markPassed();
  // The one-line notation (referee's page, a new row) comes first where it is shown.
  var first = notation || form.elements.declarer;
  // The first field in error after a failed save, else the first field. Autofocus is skipped
  // when the address has a #fragment (a correction opened from the list), and the browser's
  // scroll to the fragment may come later: focus again once the page has loaded.
  function firstField() {
    var listed = document.querySelector("#entry-errors a[data-field]");
    var named = listed ? form.elements[listed.getAttribute("data-field")] : null;
    return named || form.querySelector('[aria-invalid="true"]') || first;
  }
  function focusFirst() {
    var field = firstField();
    if (!field || form.contains(document.activeElement)) return;
    field.focus({ preventScroll: !form.classList.contains("is-bound") });
  }
  var wanted = firstField();
  if (wanted && wanted !== first) {
    wanted.focus();
  } else {
    focusFirst();
  }
  window.addEventListener("load", focusFirst);
  window.setTimeout(focusFirst, 0);
  if (editingRow) {
    var sticky = window.getComputedStyle(form).position === "sticky";
    if (sticky) editingRow.scrollIntoView({ block: "center" });
  }
  var hasValues = Array.prototype.some.call(form.elements, function (element) {
    return element.name && element.type !== "hidden" && element.name !== "csrfmiddlewaretoken" &&
      (element.type === "checkbox" ? element.checked : element.value !== "");
  });
  if (hasValues) preview(form.classList.contains("is-bound"));
  // The keyboard's handlers are in place: the field the browser focused while the page was
  // still loading (autofocus) answers typed keys from here on.
  form.setAttribute("data-ready", "");
})();
