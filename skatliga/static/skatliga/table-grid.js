// The table's device, its tap grid: one button per option of the entry form's selects. The
// grid only sets the form's own fields, so the form works without it. It hands the queue
// (table-queue.js) the form's words and three moves of the grid as window.tableEntry.
(function () {
  "use strict";

  var panel = document.getElementById("table-queue");
  var form = document.getElementById("entry");
  if (!panel) return;

  function word(name, number) {
    return (panel.getAttribute("data-word-" + name) || "").replace("__N__", number);
  }

  var grid = null;
  var mostMatadors = {};
  try {
    mostMatadors = JSON.parse(panel.getAttribute("data-most-matadors") || "{}");
  } catch (error) {
    mostMatadors = {};
  }
  var FIELDS_KEY = "skatliga-table-fields";
  var COVERED = ["declarer", "game", "matadors", "hand", "ouvert", "announced", "doubling", "bid", "won", "level"];
  // The group of buttons that sets a field, where its name differs.
  var GROUP_OF = { hand: "levels", ouvert: "levels", announced: "levels" };

  function control(name) {
    return form ? form.elements[name] : null;
  }

  function labelOf(name) {
    var label = form.querySelector('label[for="id_' + name + '"]');
    return label ? label.textContent.trim() : name;
  }

  function setValue(name, value) {
    var field = control(name);
    if (!field) return;
    if (field.type === "checkbox") field.checked = value;
    else field.value = value;
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function plain(text) {
    // "2 · Bernd Łukasz (gibt)" → "Bernd Łukasz": the player, without seat or remark.
    return text.replace(/^\s*\w+\s*·\s*/, "").replace(/\s*\(.*\)\s*$/, "");
  }

  function button(text, name, value, extra) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "tap" + (extra ? " " + extra : "");
    b.textContent = text;
    b.setAttribute("data-name", name);
    b.setAttribute("data-value", value);
    b.setAttribute("aria-pressed", "false");
    return b;
  }

  function group(name, title) {
    var box = document.createElement("div");
    box.className = "tap-group tap-" + name;
    var heading = document.createElement("span");
    heading.className = "tap-title";
    heading.id = "tap-title-" + name;
    heading.textContent = title;
    var row = document.createElement("div");
    row.className = "tap-row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-labelledby", heading.id);
    box.appendChild(heading);
    box.appendChild(row);
    grid.appendChild(box);
    return row;
  }

  // One button per option of a select: what the rule set offers, nothing else.
  function selectGroup(name, options) {
    var select = control(name);
    if (!select || select.tagName !== "SELECT") return;
    var row = group(name, (options && options.title) || labelOf(name));
    Array.prototype.forEach.call(select.options, function (option) {
      if (option.value === "" || (options && options.skip && options.skip(option))) return;
      var text = options && options.text ? options.text(option) : option.textContent;
      var b = button(text, name, option.value, options && options.kind ? options.kind(option) : "");
      if (option.disabled) {
        b.disabled = true;
        b.title = option.textContent;
      }
      row.appendChild(b);
    });
  }

  function toggle(row, name) {
    if (!control(name)) return;
    row.appendChild(button(labelOf(name), name, "on", "tap-toggle"));
  }

  // The matadors as a small grid: "mit" or "ohne", then the count (one tap for "mit n",
  // the count alone; "ohne" stays chosen until "mit" is tapped).
  var sign = 1;

  function matadorButtons(row) {
    row.textContent = "";
    var game = control("game") ? control("game").value : "";
    var most = mostMatadors[game] || 0;
    row.appendChild(button(word("with"), "matadors-sign", "1", "tap-sign tap-with"));
    row.appendChild(button(word("without"), "matadors-sign", "-1", "tap-sign tap-without"));
    for (var n = 1; n <= most; n++) {
      row.appendChild(button(String(n), "matadors", String(n), "tap-count"));
    }
    row.setAttribute("data-most", String(most));
    sign = 1;
    row.closest(".tap-group").hidden = most === 0;
  }

  function matadorCount() {
    var text = control("matadors") ? control("matadors").value.replace("−", "-").trim() : "";
    return /^[+-]?\d+$/.test(text) ? Number(text) : 0;
  }

  function buildGrid() {
    if (!form || !control("declarer") || control("declarer").tagName !== "SELECT") return;
    grid = document.createElement("div");
    grid.className = "tap-grid";
    grid.id = "tap-grid";
    selectGroup("declarer", {
      skip: function (option) { return option.value === "0"; },
      text: function (option) { return plain(option.textContent); },
    });
    selectGroup("game", {
      kind: function (option) { return "suit suit-" + option.value; },
    });
    var matadors = group("matadors", labelOf("matadors"));
    matadorButtons(matadors);
    var levels = group("levels", labelOf("hand") + " · " + labelOf("ouvert") + " · " + labelOf("announced"));
    toggle(levels, "hand");
    toggle(levels, "ouvert");
    // The button's own word: it may carry soft hyphens where a long one must break.
    var announced = word("announced") || labelOf("announced");
    Array.prototype.forEach.call(control("announced").options, function (option) {
      if (option.value) levels.appendChild(button(announced + ": " + option.textContent, "announced", option.value));
    });
    // The bid matters only to an overbid game: "überreizt" beside the levels, its values
    // below them once tapped.
    var overbid = group("bid", labelOf("bid"));
    overbid.appendChild(button(word("overbid"), "overbid", "on", "tap-toggle tap-overbid"));
    var bids = document.createElement("div");
    bids.className = "tap-row tap-bids";
    bids.setAttribute("role", "group");
    bids.setAttribute("aria-labelledby", "tap-title-bid");
    bids.hidden = true;
    grid.appendChild(bids);
    document.querySelectorAll("#bid-values option").forEach(function (option) {
      bids.appendChild(button(option.value, "bid", option.value, "tap-bid"));
    });
    selectGroup("doubling");
    // The result on one line: won or lost, Schneider or Schwarz.
    selectGroup("won", { title: labelOf("won") });
    selectGroup("level");

    var switcher = document.createElement("button");
    switcher.type = "button";
    switcher.className = "tap-switch button-secondary";
    switcher.setAttribute("aria-controls", "tap-grid");
    function showGrid(on) {
      form.classList.toggle("has-tap-grid", on);
      grid.hidden = !on;
      switcher.textContent = on ? word("fields") : word("buttons");
    }
    // The device keeps the players' choice of buttons or fields from game to game.
    switcher.addEventListener("click", function () {
      showGrid(grid.hidden);
      if (grid.hidden) window.localStorage.setItem(FIELDS_KEY, "1");
      else window.localStorage.removeItem(FIELDS_KEY);
    });
    var fields = form.querySelector(".entry-fields");
    fields.parentNode.insertBefore(grid, fields);
    var head = form.querySelector(".entry-head");
    if (head) head.appendChild(switcher);
    else fields.parentNode.insertBefore(switcher, fields);
    COVERED.forEach(function (name) {
      var box = form.querySelector('.f[data-field="' + name + '"]');
      if (box) box.classList.add("tap-covered");
    });
    showGrid(!window.localStorage.getItem(FIELDS_KEY));
    mirrorErrors();

    // A tap does not focus its button: the focus scroll that keeps keyboard focus clear of
    // the sticky save bar would move the button away between press and release.
    grid.addEventListener("mousedown", function (event) {
      if (event.target.closest("button.tap")) event.preventDefault();
    });
    grid.addEventListener("click", function (event) {
      var b = event.target.closest("button.tap");
      if (!b || b.disabled) return;
      var name = b.getAttribute("data-name");
      var field = control(name);
      var pressed = b.getAttribute("aria-pressed") === "true";
      if (name === "matadors-sign") {
        sign = Number(b.getAttribute("data-value"));
        var count = Math.abs(matadorCount());
        if (count) setValue("matadors", String(sign * count));
        else syncGrid();
        return;
      }
      if (name === "matadors") {
        var wanted = String(sign * Number(b.getAttribute("data-value")));
        setValue("matadors", pressed ? "" : wanted);
        return;
      }
      if (name === "overbid") {
        grid.querySelector(".tap-bids").hidden = pressed;
        if (pressed) setValue("bid", "");
        syncGrid();
        return;
      }
      if (field.type === "checkbox") setValue(name, !pressed);
      else setValue(name, pressed ? "" : b.getAttribute("data-value"));
    });
    form.addEventListener("change", syncGrid);
    form.addEventListener("input", syncGrid);
    syncGrid();
  }

  // A covered field's error (from the save's page or the preview) shows at its group of
  // buttons: the field itself stays out of sight, the grid stays a grid. The list of errors
  // above the form leads to the group.
  function mirrorErrors() {
    var groups = {};
    COVERED.forEach(function (name) {
      var slot = form.querySelector('[data-error-for="' + name + '"]');
      var group = GROUP_OF[name] || name;
      var box = grid.querySelector(".tap-" + group);
      if (!slot || !box) return;
      groups[group] = groups[group] || { box: box, slots: [] };
      groups[group].slots.push(slot);
      form.querySelectorAll('#entry-errors a[data-field="' + name + '"]').forEach(function (link) {
        link.setAttribute("href", "#tap-title-" + group);
      });
    });
    function show(group) {
      var entry = groups[group];
      var out = entry.box.querySelector(".tap-error");
      if (!out) {
        out = document.createElement("span");
        out.className = "field-error tap-error";
        out.id = "tap-error-" + group;
        entry.box.appendChild(out);
      }
      out.textContent = "";
      entry.slots.forEach(function (slot) {
        Array.prototype.forEach.call(slot.childNodes, function (node) {
          out.appendChild(node.cloneNode(true));
        });
      });
      var errors = out.querySelectorAll("[data-code]:not(.warning)").length;
      entry.box.classList.toggle("has-error", errors > 0);
      var row = entry.box.querySelector(".tap-row");
      if (!row) return;
      if (out.textContent) row.setAttribute("aria-describedby", out.id);
      else row.removeAttribute("aria-describedby");
    }
    Object.keys(groups).forEach(function (group) {
      show(group);
      if (!window.MutationObserver) return;
      var watch = new MutationObserver(function () { show(group); });
      groups[group].slots.forEach(function (slot) {
        watch.observe(slot, { childList: true, characterData: true, subtree: true });
      });
    });
  }

  function syncGrid() {
    if (!grid) return;
    var matadors = grid.querySelector(".tap-matadors .tap-row");
    var game = control("game") ? control("game").value : "";
    if (matadors && matadors.getAttribute("data-game") !== game) {
      matadors.setAttribute("data-game", game);
      matadorButtons(matadors);
    }
    var bids = grid.querySelector(".tap-bids");
    if (control("bid") && control("bid").value) bids.hidden = false;
    grid.querySelector(".tap-overbid").setAttribute("aria-pressed", bids.hidden ? "false" : "true");
    grid.querySelectorAll("button.tap").forEach(function (b) {
      var field = control(b.getAttribute("data-name"));
      if (!field) return;
      var on = field.type === "checkbox"
        ? field.checked
        : field.value.replace("−", "-").replace(/^\+/, "") === b.getAttribute("data-value");
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var count = matadorCount();
    if (count) sign = count < 0 ? -1 : 1;
    grid.querySelectorAll(".tap-matadors button.tap").forEach(function (b) {
      var value = Number(b.getAttribute("data-value"));
      var on = b.getAttribute("data-name") === "matadors-sign" ? value === sign : value === Math.abs(count);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  // The tap buttons of the seats that sit out the form's game are not to be pressed.
  function seatsOut(sitting) {
    if (!grid) return;
    grid.querySelectorAll(".tap-declarer button").forEach(function (b) {
      b.disabled = sitting.indexOf(b.getAttribute("data-value")) !== -1;
    });
  }

  // A seat changed hands (a substitute from this game on): its declarer's choice and button
  // name the one who sits there now.
  function renameSeat(position, old, name) {
    var select = control("declarer");
    if (!select || select.tagName !== "SELECT") return;
    Array.prototype.forEach.call(select.options, function (option) {
      if (option.value === String(position)) option.textContent = option.textContent.replace(old, name);
    });
    if (!grid) return;
    grid.querySelectorAll('.tap-declarer button[data-value="' + position + '"]').forEach(function (b) {
      b.textContent = name;
    });
  }

  // The first button of a shown grid takes the focus; false when the fields are shown.
  function focus() {
    if (!grid || grid.hidden) return false;
    var first = grid.querySelector("button.tap:not([disabled])");
    if (first) first.focus();
    return true;
  }

  if (form) buildGrid();
  window.tableEntry = {
    panel: panel,
    form: form,
    word: word,
    control: control,
    labelOf: labelOf,
    plain: plain,
    sync: syncGrid,
    seatsOut: seatsOut,
    renameSeat: renameSeat,
    focus: focus,
  };
})();
