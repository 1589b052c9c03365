// The table's device, its queue: keeps games typed through a Wi-Fi drop and posts the form as
// typed to the same save as online, in order, with the row's version, so the server's engine
// stays the only place where rules live. The form's words and the tap grid come from
// table-grid.js (window.tableEntry), loaded before it.
(function () {
  "use strict";

  var entry = window.tableEntry;
  if (!entry) return;
  var panel = entry.panel;
  var form = entry.form;
  var word = entry.word;
  var control = entry.control;
  var labelOf = entry.labelOf;
  var plain = entry.plain;

  // --- the service worker: keeps this page and its files for a reload without Wi-Fi ------
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker
      .register(panel.getAttribute("data-worker"), { scope: panel.getAttribute("data-scope") })
      .catch(function () {});
  }

  var note = document.getElementById("table-offline-note");
  var list = document.getElementById("table-queue-items");
  var sheet = document.querySelector("table.list");
  // One queue per table and device, whatever the page's language (/t/… and /en/t/…).
  var storeKey = "skatliga-table-queue:" +
    (form ? new URL(form.action).pathname : location.pathname).replace(/^.*?(?=\/t\/)/, "");

  function load() {
    try {
      return JSON.parse(window.localStorage.getItem(storeKey) || "[]");
    } catch (error) {
      return [];
    }
  }
  function store(queue) {
    if (queue.length) window.localStorage.setItem(storeKey, JSON.stringify(queue));
    else window.localStorage.removeItem(storeKey);
  }
  var queue = load();

  // --- the queue -------------------------------------------------------------------------
  function fieldsOf(submitter) {
    var data;
    try {
      data = new FormData(form, submitter || undefined);
    } catch (error) {
      data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    }
    var fields = [];
    data.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    return fields;
  }

  // What was typed, in the form's own words (no value: that is the server's to say).
  function describe(fields) {
    var values = {};
    fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    if (values.passed === "1" || values.declarer === "0") return word("passed");
    var parts = [];
    function option(name) {
      var select = control(name);
      if (!select || !values[name] || select.tagName !== "SELECT") return;
      var picked = Array.prototype.filter.call(select.options, function (o) { return o.value === values[name]; })[0];
      if (picked) parts.push(name === "declarer" ? plain(picked.textContent) : picked.textContent);
    }
    option("declarer");
    option("game");
    if (values.matadors) {
      var m = values.matadors.replace("−", "-");
      parts.push(/^-|^o/i.test(m) ? word("without") + " " + m.replace(/^[-o]\s*/i, "") : word("with") + " " + m.replace(/^[+m]\s*/i, ""));
    }
    if (values.hand) parts.push(labelOf("hand"));
    if (values.ouvert) parts.push(labelOf("ouvert"));
    option("announced");
    option("doubling");
    if (values.bid) parts.push(labelOf("bid") + " " + values.bid);
    if (values.card_points) parts.push(labelOf("card_points") + " " + values.card_points);
    if (values.tricks) parts.push(labelOf("tricks") + " " + values.tricks);
    option("won");
    option("level");
    if (values.ramsch_card_points) parts.push(values.ramsch_card_points);
    return parts.join(", ");
  }

  function value(fields, name) {
    var found = fields.filter(function (pair) { return pair[0] === name; })[0];
    return found ? found[1] : "";
  }

  function row(number) {
    return sheet ? sheet.querySelector('tbody tr[data-number="' + number + '"]') : null;
  }

  function markRows() {
    if (!sheet) return;
    sheet.querySelectorAll("tr.is-queued").forEach(function (tr) {
      tr.classList.remove("is-queued");
      var badge = tr.querySelector(".queued-badge");
      if (badge) badge.remove();
    });
    queue.forEach(function (item) {
      var tr = row(item.number);
      if (!tr) return;
      tr.classList.add("is-queued");
      var badge = document.createElement("span");
      badge.className = "queued-badge";
      badge.textContent = word(item.state === "queued" ? "queued" : item.state === "sending" ? "sending" : "rejected").replace(/:$/, "");
      tr.querySelector(".c-num").appendChild(badge);
    });
  }

  function side(title, text, kind) {
    var box = document.createElement("div");
    box.className = "queue-side queue-" + kind;
    var heading = document.createElement("strong");
    heading.textContent = title;
    var body = document.createElement("span");
    body.textContent = text || "—";
    box.appendChild(heading);
    box.appendChild(body);
    return box;
  }

  function action(text, kind, handler) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = kind;
    b.textContent = text;
    b.addEventListener("click", handler);
    return b;
  }

  function render() {
    list.textContent = "";
    queue.forEach(function (item, index) {
      var li = document.createElement("li");
      li.className = "queue-item is-" + item.state;
      li.setAttribute("data-number", item.number);
      var head = document.createElement("p");
      head.className = "queue-head";
      var title = document.createElement("strong");
      title.textContent = word("game", item.number);
      var state = document.createElement("span");
      state.className = "queue-state";
      head.appendChild(title);
      head.appendChild(document.createTextNode(" "));
      head.appendChild(state);
      li.appendChild(head);
      if (item.state === "conflict") {
        state.textContent = word("conflict", item.number);
        var sides = document.createElement("div");
        sides.className = "queue-sides";
        sides.appendChild(side(word("mine"), item.description, "mine"));
        sides.appendChild(side(word("theirs"), item.theirs, "theirs"));
        li.appendChild(sides);
      } else if (item.state === "rejected") {
        state.textContent = word("rejected");
        li.appendChild(side(word("mine"), item.description, "mine"));
        var errors = document.createElement("ul");
        errors.className = "queue-errors";
        (item.errors || []).forEach(function (text) {
          var e = document.createElement("li");
          e.textContent = text;
          errors.appendChild(e);
        });
        li.appendChild(errors);
      } else {
        state.textContent = word(item.state === "sending" ? "sending" : "queued");
        var what = document.createElement("span");
        what.className = "queue-what";
        what.textContent = item.description;
        li.appendChild(what);
      }
      if (item.state === "conflict" || item.state === "rejected") {
        var buttons = document.createElement("p");
        buttons.className = "queue-actions";
        buttons.appendChild(action(word("resend"), "button-primary queue-resend", function () {
          // After a conflict, against the row now saved: the players chose their version.
          if (item.state === "conflict") item.version = item.current_version;
          item.state = "queued";
          store(queue);
          update();
          flush();
        }));
        buttons.appendChild(action(word("discard"), "button-danger queue-discard", function () {
          queue.splice(index, 1);
          store(queue);
          update();
          flush();
        }));
        li.appendChild(buttons);
      }
      list.appendChild(li);
    });
    // The save bar names the first game the players have to decide, out of the panel's view.
    var alert = document.getElementById("queue-alert");
    var waiting = queue.filter(function (item) { return item.state === "conflict" || item.state === "rejected"; })[0];
    if (alert) {
      alert.hidden = !waiting;
      alert.textContent = !waiting ? "" : waiting.state === "conflict"
        ? word("conflict", waiting.number).split(". ")[0]
        : word("game", waiting.number) + " " + word("rejected").replace(/:$/, "");
    }
    // The save bar counts the games still on this device.
    var count = document.getElementById("queue-count");
    var unsent = queue.filter(function (item) { return item.state === "queued" || item.state === "sending"; }).length;
    if (count) {
      count.hidden = !unsent;
      count.textContent = unsent ? word("waiting", unsent) : "";
    }
    var offline = !navigator.onLine;
    note.textContent = offline ? word("offline") : "";
    panel.hidden = !queue.length && !offline;
    document.body.classList.toggle("is-offline", offline);
  }

  function update() {
    render();
    markRows();
  }

  // The form moves on to the first row neither saved nor waiting, as the server's page would
  // (also on the device's copy of the page, whose rows may be newer than its form).
  function advance() {
    if (!form || !sheet || control("version").value) return;
    var current = Number(control("number").value);
    var waiting = queue.some(function (item) { return Number(item.number) === current; });
    var typed = row(current);
    if (!waiting && !(typed && !typed.classList.contains("is-empty"))) return;
    var next = Array.prototype.filter.call(sheet.querySelectorAll("tbody tr.is-empty"), function (tr) {
      return !tr.classList.contains("is-queued");
    })[0];
    if (!next) {
      form.hidden = true;
      return;
    }
    moveTo(next);
  }

  // Who sits on each seat for game ``number``: the seat's player, or from his first game on
  // the substitute the referee appointed. The totals bar, the declarer's choices and buttons
  // and the dealer's line name him.
  function nameSeats(number) {
    form.querySelectorAll(".entry-standings li[data-seat]").forEach(function (li) {
      var from = Number(li.getAttribute("data-from") || 0);
      var later = from > 0 && Number(number) >= from;
      var name = li.getAttribute(later ? "data-substitute" : "data-player");
      var old = li.getAttribute("title");
      if (!name || old === name) return;
      li.setAttribute("title", name);
      li.querySelector(".standing-name").textContent = li.getAttribute(later ? "data-substitute-short" : "data-player-short");
      entry.renameSeat(li.getAttribute("data-seat"), old, name);
    });
  }

  // The seats as a save's answer has them: a substitute appointed (or removed) since the
  // page was loaded.
  function updateSeats(seats) {
    (seats || []).forEach(function (seat) {
      var li = form.querySelector('.entry-standings li[data-seat="' + seat.position + '"]');
      if (!li) return;
      li.setAttribute("data-player", seat.player);
      li.setAttribute("data-player-short", seat.player_short);
      li.setAttribute("data-substitute", seat.substitute);
      li.setAttribute("data-substitute-short", seat.substitute_short);
      li.setAttribute("data-from", seat.from || "");
    });
  }

  // The form types row ``next`` (a <tr> of the list): its number, players, dealer and seats
  // out.
  function moveTo(next) {
    var number = next.getAttribute("data-number");
    control("number").value = number;
    form.setAttribute("data-number", number);
    var title = form.querySelector(".entry-title");
    if (title) title.textContent = word("game", number);
    nameSeats(number);
    var dealerCell = next.querySelector(".c-dealer");
    var dealer = form.querySelector(".entry-dealer");
    var seatName = dealerCell ? form.querySelector('.entry-standings li[data-seat="' + Number(dealerCell.textContent) + '"]') : null;
    if (dealer && seatName) dealer.textContent = dealer.textContent.replace(/:.*$/, ": " + seatName.getAttribute("title"));
    var sitting = Array.prototype.map.call(next.querySelectorAll("td.c-total.sits-out"), function (td) {
      return td.getAttribute("data-seat");
    });
    Array.prototype.forEach.call(control("declarer").options, function (option) {
      if (/^\d+$/.test(option.value) && option.value !== "0") option.disabled = sitting.indexOf(option.value) !== -1;
    });
    entry.seatsOut(sitting);
  }

  function clearForm() {
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!element.name || element.type === "hidden" || element.type === "submit") return;
      if (element.type === "checkbox") element.checked = false;
      else element.value = "";
    });
    form.classList.remove("is-passed", "is-ramsch");
    var out = document.getElementById("entry-value");
    if (out) out.textContent = "–";
    var verdict = document.getElementById("entry-verdict");
    if (verdict) verdict.textContent = "";
    var breakdown = document.getElementById("entry-breakdown");
    if (breakdown) breakdown.textContent = "";
    entry.sync();
  }

  function enqueue(submitter) {
    queueFields(fieldsOf(submitter));
  }

  function queueFields(fields) {
    var number = value(fields, "number");
    queue = queue.filter(function (item) { return item.number !== number || item.state !== "queued"; });
    queue.push({
      number: number,
      version: value(fields, "version"),
      fields: fields,
      description: describe(fields),
      state: "queued",
    });
    store(queue);
    update();
    if (control("version").value) {
      // A correction: back to the next new row, from the page's own copy.
      var url = new URL(form.action);
      window.location.href = url.pathname + "#entry";
      return;
    }
    clearForm();
    advance();
    if (!entry.focus() && control("declarer")) control("declarer").focus();
  }

  // --- sending ---------------------------------------------------------------------------
  var flushing = false;
  var RETRY_MS = 5000;

  function parse(text) {
    return new DOMParser().parseFromString(text, "text/html");
  }

  function texts(nodes) {
    return Array.prototype.map.call(nodes, function (node) { return node.textContent.replace(/\s+/g, " ").trim(); })
      .filter(function (text) { return text; });
  }

  // "Jetzt gespeichert (von …, 12:05 Uhr): Grand … = 96" → "Grand … = 96".
  function from(text, start) {
    var at = text.indexOf(start);
    return at === -1 ? text : text.slice(at);
  }

  function send(item) {
    var body = new URLSearchParams();
    var token = form ? control("csrfmiddlewaretoken") : document.querySelector("[name=csrfmiddlewaretoken]");
    if (token) body.append("csrfmiddlewaretoken", token.value);
    item.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "version" ? item.version || "" : pair[1]);
    });
    return fetch(form ? form.action : location.pathname, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
    }).then(function (response) {
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        return { saved: true };
      }
      return response.text().then(function (text) {
        var doc = parse(text);
        var conflict = doc.querySelector(".alert-conflict");
        if (conflict) {
          var version = doc.querySelector('#entry input[name="version"]');
          var current = conflict.querySelector(".conflict-current");
          return {
            conflict: true,
            theirs: current ? from(texts([current.parentNode])[0], current.textContent.trim()) : "",
            version: version ? version.value : "",
          };
        }
        if (response.status === 429) return { retry: true };
        var errors = texts(doc.querySelectorAll("#entry-errors li, .alert-error p, [role=alert] p"));
        if (!errors.length) errors = texts(doc.querySelectorAll("h1")).slice(0, 1);
        // The page asked first (a signed list): resending the row is the players' yes.
        var asked = doc.querySelector('#entry input[name="clear_signatures"]');
        return { errors: errors.length ? errors : [String(response.status)], asked: !!(asked && asked.value === "True") };
      });
    });
  }

  // The next game to send, in order: past a conflict (its row is on the server, so the rows
  // after it can follow) and a refused correction, never past a refused new row.
  function next() {
    for (var i = 0; i < queue.length; i++) {
      var item = queue[i];
      if (item.state === "queued") return item;
      if (item.state !== "conflict" && !(item.state === "rejected" && item.version)) return null;
    }
    return null;
  }

  function flush() {
    if (flushing || !navigator.onLine) return;
    var item = next();
    if (!item) {
      // All sent that can be: the server's page shows the saved rows (the rest stays queued).
      var busy = queue.some(function (waiting) { return waiting.state === "sending"; });
      if (!busy && panel.getAttribute("data-sent") && formIsEmpty()) window.location.reload();
      return;
    }
    flushing = true;
    item.state = "sending";
    update();
    send(item)
      .then(function (result) {
        flushing = false;
        if (result.saved) {
          queue.splice(queue.indexOf(item), 1);
          panel.setAttribute("data-sent", "1");
        } else if (result.retry) {
          item.state = "queued";
          window.setTimeout(flush, 60000);
          store(queue);
          update();
          return;
        } else if (result.conflict) {
          item.state = "conflict";
          item.theirs = result.theirs;
          item.current_version = result.version;
        } else {
          item.state = "rejected";
          item.errors = result.errors;
          if (result.asked) {
            item.fields = item.fields.filter(function (pair) { return pair[0] !== "clear_signatures"; });
            item.fields.push(["clear_signatures", "True"]);
          }
        }
        store(queue);
        update();
        flush();
      })
      .catch(function () {
        // No answer: try again in a while (the "online" event comes only after "offline").
        flushing = false;
        item.state = "queued";
        store(queue);
        update();
        window.setTimeout(flush, RETRY_MS);
      });
  }

  function formIsEmpty() {
    if (!form) return true;
    return !Array.prototype.some.call(form.elements, function (element) {
      return element.name && element.type !== "hidden" && element.type !== "submit" &&
        (element.type === "checkbox" ? element.checked : element.value !== "");
    });
  }

  // --- a new row saved online: the page updated in place --------------------------------
  // The save answers this script with the rows it changed (the row saved and the next, or
  // every row where the page was older than the list), the summary, the list's state and
  // the notes, rendered by the templates of the page: no reload. A row the server does not
  // save (an error to show, a conflict, the list closed) goes once more as the form's own
  // post, whose page shows why; a save without an answer waits on the device like one typed
  // offline.
  var native = false;

  function fragment(html, selector) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content.querySelector(selector);
  }

  // The rows of an answer (each with its id) and its summary, parsed as parts of a table.
  function listParts(html) {
    var holder = document.createElement("template");
    holder.innerHTML = "<table>" + html + "</table>";
    return holder.content.querySelectorAll("tbody tr[id], tfoot");
  }

  function replace(old, fresh) {
    if (old && fresh) old.replaceWith(fresh);
  }

  // What the list's rows show (its tournament's frame and its own revision): sent with a
  // save, raised by its answer.
  function shownRevision() {
    return sheet.getAttribute("data-revision") || "";
  }

  function showSaved(data, shown) {
    listParts(data.rows).forEach(function (fresh) {
      replace(fresh.id ? document.getElementById(fresh.id) : sheet.querySelector("tfoot"), fresh);
    });
    sheet.setAttribute("data-revision", data.revision || "");
    replace(document.querySelector(".sheet-status"), fragment(data.status, ".sheet-status"));
    document.querySelectorAll(".sheet-page > [role=status]").forEach(function (old) { old.remove(); });
    var notes = fragment(data.messages, "[role=status]");
    var head = document.querySelector(".sheet-head");
    if (notes && head) head.after(notes);
    showStanding();
    keepCopy(data, shown);
    updateSeats(data.seats);
    var next = data.next && row(data.next);
    if (!next) {
      // The list is complete: the page's next part (signing) comes with the page.
      window.location.reload();
      return;
    }
    clearForm();
    moveTo(next);
    form.dispatchEvent(new CustomEvent("entry:saved", { detail: data }));
    update();
    if (!entry.focus() && control("declarer")) control("declarer").focus();
  }

  // The strip under the form shows the list's totals.
  function showStanding() {
    form.querySelectorAll('.entry-standings [data-summary="total"]').forEach(function (strong) {
      var cell = sheet.querySelector('tfoot [data-summary="total"][data-seat="' + strong.getAttribute("data-seat") + '"]');
      if (cell) strong.textContent = cell.textContent;
    });
  }

  var REVISION = /(<table class="list[^>]*? data-revision=")([^"]*)(")/;

  // The service worker's copy of this page (for a reload without Wi-Fi) gets the saved rows
  // and state, in the server's words: each row of the answer by its id, the summary, the
  // state. Reloaded, it shows them, and the form moves on. A copy older than the page
  // (``shown``), which the rows answered would not bring up to date, is fetched anew.
  function keepCopy(data, shown) {
    if (!window.caches) return;
    var here = new URL(location.href);
    here.hash = "";
    var urls = [here.href, form.action].filter(function (url, i, all) { return all.indexOf(url) === i; });
    var rows = data.rows.match(/<tr id="row-\d+"[\s\S]*?<\/tr>/g) || [];
    var foot = (data.rows.match(/<tfoot>[\s\S]*?<\/tfoot>/) || [""])[0];
    var revision = data.revision || "";
    caches.keys().then(function (names) {
      names.filter(function (name) { return name.indexOf("skatliga-table-") === 0; }).forEach(function (name) {
        caches.open(name).then(function (cache) {
          urls.forEach(function (url) {
            cache.match(url, { ignoreVary: true }).then(function (kept) {
              if (!kept) return null;
              return kept.text().then(function (text) {
                var copied = (text.match(REVISION) || [])[2];
                if (!data.every_row && copied !== shown) {
                  return fetch(url, { credentials: "same-origin" }).then(function (response) {
                    if (response.ok && !response.redirected) return cache.put(url, response);
                    return null;
                  });
                }
                var patched = text;
                rows.forEach(function (html) {
                  var id = html.match(/^<tr id="(row-\d+)"/)[1];
                  patched = patched.replace(new RegExp('<tr id="' + id + '"[\\s\\S]*?</tr>'), function () { return html; });
                });
                patched = patched
                  .replace(/<tfoot>[\s\S]*?<\/tfoot>/, function () { return foot; })
                  .replace(REVISION, function (all, before, old, after) { return before + revision + after; })
                  .replace(/<p class="sheet-status">[\s\S]*?<\/p>/, function () { return data.status.trim(); });
                var headers = new Headers(kept.headers);
                headers.set("Date", new Date().toUTCString());
                return cache.put(url, new Response(patched, { status: kept.status, headers: headers }));
              });
            }).catch(function () {});
          });
        });
      });
    }).catch(function () {});
  }

  function saveInPlace(submitter) {
    var fields = fieldsOf(submitter);
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", control("csrfmiddlewaretoken").value);
    fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    form.classList.add("is-saving");
    var shown = shownRevision();
    fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", "X-List-Revision": shown, Accept: "application/json" },
    }).then(function (response) {
      form.classList.remove("is-saving");
      var type = response.headers.get("Content-Type") || "";
      if (response.ok && type.indexOf("application/json") === 0) {
        return response.json().then(function (data) { showSaved(data, shown); });
      }
      native = true;
      if (submitter) form.requestSubmit(submitter);
      else form.requestSubmit();
    }, function () {
      form.classList.remove("is-saving");
      queueFields(fields);
      flush();
    });
  }

  // --- wiring ----------------------------------------------------------------------------
  if (form) {
    // Offline, or with games still waiting, a save joins the queue (in order); online with
    // nothing waiting a new row is saved in place, a correction is the form's own post.
    form.addEventListener("submit", function (event) {
      if (native) {
        native = false;
        return;
      }
      var online = navigator.onLine && !queue.length;
      if (online && (control("version").value || !sheet || !window.fetch)) return;
      event.preventDefault();
      if (online) saveInPlace(event.submitter);
      else enqueue(event.submitter);
    });
    // Offline the server cannot score the row: the value waits for the connection.
    form.addEventListener("change", pending);
    form.addEventListener("input", pending);
  }

  function pending() {
    if (navigator.onLine) return;
    var out = document.getElementById("entry-value");
    var verdict = document.getElementById("entry-verdict");
    var breakdown = document.getElementById("entry-breakdown");
    if (out) {
      out.textContent = "…";
      out.classList.remove("won", "lost");
    }
    if (verdict) verdict.textContent = word("pending");
    if (breakdown) breakdown.textContent = "";
    form.setAttribute("data-preview-state", "pending");
  }

  queue.forEach(function (item) {
    if (item.state === "sending") item.state = "queued";
  });
  // A save the service worker could not deliver comes back in the fragment (sw.js).
  if (form && location.hash.indexOf("#unsent=") === 0) {
    var returned = [];
    try {
      returned = JSON.parse(decodeURIComponent(location.hash.slice(8)));
    } catch (error) {
      returned = [];
    }
    history.replaceState(null, "", location.pathname + location.search + "#entry");
    if (returned.length) queueFields(returned);
  }
  update();
  advance();
  if (form && sheet) showStanding();
  if (!navigator.onLine) {
    // A page served from the device's copy: its old notices are not news.
    document.querySelectorAll(".messages").forEach(function (box) { box.hidden = true; });
  }
  window.addEventListener("offline", update);
  window.addEventListener("online", function () {
    update();
    flush();
  });
  flush();
})();
