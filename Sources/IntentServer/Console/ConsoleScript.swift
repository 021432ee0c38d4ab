/// The console's script, served at `/console.js`: plain JavaScript, no framework, no build step.
/// Every string from the server is set with `textContent` (never as HTML); the token lives in the
/// tab's session storage and goes only in the `Authorization` header, never in a URL.
enum ConsoleScript {
    static let source = #"""
        "use strict";
        (() => {
          const T = JSON.parse(document.querySelector('meta[name="console-text"]').content);
          const german = T.lang === "de";
          const $ = (id) => document.getElementById(id);
          const TOKEN_KEY = "intents.token";
          let token = sessionStorage.getItem(TOKEN_KEY);
          let conversation = null;
          let stream = null;
          const timings = [];
          window.intentsConsole = { timings };

          function el(tag, props, ...children) {
            const node = document.createElement(tag);
            if (props) {
              for (const [key, value] of Object.entries(props)) {
                if (value === undefined || value === null || value === false) continue;
                if (key === "text") node.textContent = value;
                else if (key === "class") node.className = value;
                else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
                else node.setAttribute(key, value === true ? "" : String(value));
              }
            }
            for (const child of children) if (child) node.append(child);
            return node;
          }
          const reduceMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

          // The server: JSON in, JSON out, the token in the header only.
          async function api(method, path, body) {
            const headers = { Authorization: "Bearer " + token, Accept: "application/json" };
            if (body !== undefined) headers["Content-Type"] = "application/json";
            let response;
            try {
              response = await fetch(path, {
                method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
              });
            } catch (error) {
              return { status: 0, data: { error: { code: "network", message: T.unreachable } } };
            }
            let data = null;
            try { data = await response.json(); } catch (error) { data = null; }
            if (response.status === 401) signOut(T.badToken);
            return { status: response.status, data, received: performance.now(), url: response.url };
          }

          // MARK: Signing in
          async function signIn(candidate) {
            token = candidate;
            const check = await api("GET", "/v1/controls");
            if (check.status !== 200) {
              token = null;
              sessionStorage.removeItem(TOKEN_KEY);
              $("sign-in-error").textContent = check.status === 401 ? T.badToken : messageOf(check.data);
              $("token").focus();
              return;
            }
            sessionStorage.setItem(TOKEN_KEY, candidate);
            $("sign-in").hidden = true;
            $("console").hidden = false;
            $("account").hidden = false;
            $("sign-in-error").textContent = "";
            $("token").value = "";
            renderControls(check.data.controls || []);
            listen();
            refreshPresence(true);
            $("say").focus();
          }

          function signOut(message) {
            token = null;
            conversation = null;
            sessionStorage.removeItem(TOKEN_KEY);
            if (stream) { stream.abort(); stream = null; }
            $("console").hidden = true;
            $("account").hidden = true;
            $("sign-in").hidden = false;
            for (const id of ["log", "suggestions", "hits", "stack", "controls", "activities"]) $(id).replaceChildren();
            $("tip").hidden = true;
            $("sign-in-error").textContent = message || "";
            $("token").focus();
          }

          function messageOf(data) {
            if (data && data.error && data.error.message) return data.error.message;
            if (data && data.dialog) return data.dialog;
            return T.unreachable;
          }

          // MARK: The conversation
          function addTurn(node) {
            const log = $("log");
            log.append(node);
            node.scrollIntoView({ block: "nearest", behavior: reduceMotion() ? "auto" : "smooth" });
          }

          function retireChoices() {
            for (const button of $("log").querySelectorAll(".choices button")) button.disabled = true;
          }

          async function say(text, shown) {
            retireChoices();
            addTurn(el("li", { class: "user" }, el("span", { class: "who", text: T.you + ": " }), el("span", { text: shown || text })));
            const body = { text };
            if (conversation) body.conversation = conversation;
            if (german) body.lang = "de";
            showAnswer(await api("POST", "/v1/say", body), "/v1/say");
            refreshPresence(false);
          }

          // Draws an answer: its dialog, its choices or confirmation as buttons, what it opens.
          function showAnswer(reply, path) {
            const data = reply.data || {};
            if (data.conversation) conversation = data.conversation;
            const failed = reply.status !== 200 || data.error || data.status === "error";
            const item = el("li", { class: "answer" + (failed ? " failed" : ""), "data-status": data.status || "refused" });
            item.append(el("span", { class: "who", text: T.assistant + ": " }));
            item.append(el("p", { class: "dialog", text: data.dialog !== undefined ? data.dialog : messageOf(data) }));
            const choices = el("div", { class: "choices" });
            if (data.status === "needs_confirmation") {
              choices.append(choice(T.yes, T.yesWord), choice(T.no, T.noWord));
            }
            (data.choices || []).forEach((text, index) => choices.append(choice((index + 1) + ". " + text, String(index + 1), text)));
            if (data.status === "no_match") (data.suggestions || []).forEach((text) => choices.append(choice(text, text)));
            if (choices.childElementCount) item.append(choices);
            if (data.opens && data.opens.length) {
              item.append(el("p", { class: "muted", text: T.opens }));
              item.append(el("ul", { class: "opens" }, ...data.opens.map((link) => el("li", {}, el("code", { text: link })))));
            }
            addTurn(item);
            if (path) measure(reply, path);
            if (choices.childElementCount) choices.firstChild.focus();
          }

          function choice(label, reply, shown) {
            return el("button", { type: "button", text: label, on: { click: () => say(reply, shown || label) } });
          }

          // How long the answer took to appear once its reply had arrived (the browser's own clock).
          function measure(reply, path) {
            requestAnimationFrame(() => {
              const shown = performance.now();
              const entries = performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith(path));
              const last = entries[entries.length - 1];
              const arrived = last && last.responseEnd > 0 && last.responseEnd <= reply.received ? last.responseEnd : reply.received;
              timings.push({ path, replyEnd: arrived, shown, ms: shown - arrived });
            });
          }

          // MARK: Suggestions, tips, search
          async function refreshPresence(withTip) {
            if (withTip) {
              const tip = await api("POST", "/v1/tip", german ? { lang: "de" } : {});
              const found = tip.status === 200 && tip.data && tip.data.tip;
              $("tip").hidden = !found;
              if (found) {
                const phrase = tip.data.tip.phrase;
                $("tip").replaceChildren(el("span", { text: T.tip + " " }),
                  el("button", { type: "button", class: "quiet", text: "“" + phrase + "”", on: { click: () => say(phrase) } }));
              }
            }
            const list = await api("GET", "/v1/suggest?limit=3");
            if (list.status !== 200 || !token) return;
            const items = (list.data.suggestions || []).map((suggestion) =>
              el("li", {}, el("button", { type: "button", text: suggestion.text, on: { click: () => say(suggestion.text) } })));
            $("suggestions").replaceChildren(...(items.length ? items : [el("li", { class: "muted", text: T.noSuggestions })]));
          }

          async function search(query) {
            const reply = await api("GET", "/v1/search?limit=10&q=" + encodeURIComponent(query));
            const hits = (reply.data && reply.data.hits) || [];
            if (reply.status !== 200) {
              $("hits").replaceChildren(el("li", { class: "error", text: messageOf(reply.data) }));
              return;
            }
            $("hits").replaceChildren(...(hits.length ? hits.map(hit) : [el("li", { class: "muted", text: T.noHits })]));
          }

          function hit(found) {
            const text = el("div", { class: "hit-text" }, el("strong", { text: found.title }), el("br"),
              el("span", { text: [found.app, found.subtitle].filter(Boolean).join(" · ") }));
            if (found.link) text.append(el("br"), el("code", { text: found.link }));
            const item = el("li", { class: "hit" }, text);
            if (found.link) {
              item.append(el("button", { type: "button", text: T.open, "aria-label": T.open + " " + found.title,
                on: { click: () => openLink(found.link, found.title) } }));
            }
            return item;
          }

          async function openLink(link, title) {
            retireChoices();
            addTurn(el("li", { class: "user" }, el("span", { class: "who", text: T.you + ": " }), el("span", { text: T.open + " " + title })));
            const body = { url: link };
            if (conversation) body.conversation = conversation;
            showAnswer(await api("POST", "/v1/open", body), "/v1/open");
          }

          // MARK: The Smart Stack, controls, live activities (drawn from the event stream)
          function render(state) {
            keepingFocus(() => {
              $("stack").replaceChildren(...(state.widgets || []).map(card));
              renderControls(state.controls || []);
              renderActivities(state.activities || []);
            });
          }

          // Redrawing replaces the buttons: the one that had the focus gets it back.
          function keepingFocus(draw) {
            const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
            draw();
            if (key) {
              const again = Array.from(document.querySelectorAll("[data-key]")).find((node) => node.dataset.key === key);
              if (again) again.focus();
            }
          }

          function card(widget) {
            const family = widget.family || (widget.families && widget.families[0]) || "small";
            const id = "card-" + widget.widget.replace(/[^A-Za-z0-9]/g, "-") + (widget.instance ? "-" + widget.instance : "");
            const name = widget.name + (widget.instance ? " #" + widget.instance : "");
            const article = el("article", { class: "card family-" + family, id, "aria-labelledby": id + "-name",
              "data-widget": widget.widget, "data-instance": widget.instance });
            article.append(el("div", { class: "app", text: widget.app }));
            article.append(el("h3", { id: id + "-name", text: name }));
            if (widget.settings) {
              article.append(el("p", { class: "muted", text: widget.settings.map((s) => s.name + ": " + s.value).join(", ") }));
            }
            if (widget.title) article.append(el("p", { class: "content-title", text: widget.title }));
            if (widget.value) {
              const value = el("p", { class: "value", text: widget.value });
              if (widget.label) value.append(el("span", { class: "label", text: widget.label }));
              article.append(value);
            }
            if (typeof widget.gauge === "number") {
              article.append(el("meter", { min: 0, max: 1, value: widget.gauge, "aria-label": name }));
            }
            if (widget.text) article.append(el("p", { class: "text", text: widget.text }));
            if (widget.figures) {
              article.append(el("p", { class: "figures muted",
                text: widget.figures.map((f) => f.label ? f.value + " " + f.label : f.value).join(" · ") }));
            }
            if (widget.items && widget.items.length) {
              article.append(el("ul", {}, ...widget.items.map((item) => {
                const row = el("li", {}, el("span", { class: "line", text: item.line }));
                if (item.detail) row.append(el("span", { class: "muted", text: item.detail }));
                const actions = el("span", { class: "buttons" });
                for (const button of item.buttons || []) actions.append(press(widget, button, item.line));
                if (item.link) {
                  actions.append(el("button", { type: "button", text: T.open, "aria-label": T.open + " " + item.line,
                    "data-key": id + "-open-" + item.id, on: { click: () => openLink(item.link, item.line) } }));
                }
                if (actions.childElementCount) row.append(actions);
                return row;
              })));
            } else if (widget.empty) {
              article.append(el("p", { class: "muted", text: widget.empty }));
            }
            const buttons = el("div", { class: "buttons" });
            for (const button of widget.buttons || []) buttons.append(press(widget, button, name));
            if (widget.link) {
              buttons.append(el("button", { type: "button", text: T.open, "aria-label": T.open + " " + name,
                "data-key": id + "-open", on: { click: () => openLink(widget.link, name) } }));
            }
            if (buttons.childElementCount) article.append(buttons);
            return article;
          }

          function press(widget, button, context) {
            const key = "press-" + widget.widget + "-" + (widget.instance || 0) + "-" + button.number;
            return el("button", { type: "button", text: button.title, "aria-label": button.title + " (" + context + ")",
              "data-key": key, "data-button": button.number, on: { click: async () => {
                const body = { widget: widget.widget, button: button.number };
                if (widget.instance) body.instance = widget.instance;
                if (conversation) body.conversation = conversation;
                showAnswer(await api("POST", "/v1/widgets/press", body), "/v1/widgets/press");
              } } });
          }

          function renderControls(controls) {
            const items = controls.map((control) => {
              const key = "control-" + control.control;
              const button = control.kind === "toggle"
                ? el("button", { type: "button", role: "switch", "aria-checked": control.isOn ? "true" : "false",
                    "aria-label": control.title, "data-key": key, "data-control": control.control,
                    text: control.isOn ? T.on : T.off })
                : el("button", { type: "button", "data-key": key, "data-control": control.control, text: control.title });
              button.addEventListener("click", async () => {
                const body = { action: control.kind === "toggle" ? "toggle" : "press" };
                if (conversation) body.conversation = conversation;
                const path = "/v1/controls/" + encodeURIComponent(control.control);
                showAnswer(await api("POST", path, body), path);
              });
              return el("li", {}, el("span", { text: control.title }), button);
            });
            $("controls").replaceChildren(...(items.length ? items : [el("li", { class: "muted", text: T.noControls })]));
          }

          function renderActivities(activities) {
            const items = activities.map((activity) => {
              const title = (activity.lockScreen && activity.lockScreen.title) || activity.title;
              const detail = activity.lockScreen && activity.lockScreen.detail;
              const item = el("li", { class: "activity " + activity.status, "data-activity": activity.activity },
                el("strong", { text: title }));
              if (activity.status !== "active") item.append(el("span", { class: "muted", text: " (" + (T[activity.status] || activity.status) + ")" }));
              if (detail) item.append(el("p", { class: "muted", text: detail }));
              if (typeof activity.progress === "number") {
                item.append(el("progress", { max: 1, value: activity.progress, "aria-label": T.progress + ": " + title,
                  "data-progress": activity.progress }));
              }
              return item;
            });
            $("activities").replaceChildren(...(items.length ? items : [el("li", { class: "muted", text: T.noActivities })]));
          }

          // The event stream: fetch() with the token in its header (EventSource cannot send one).
          async function listen() {
            if (stream) stream.abort();
            const controller = new AbortController();
            stream = controller;
            try {
              const response = await fetch("/v1/events", {
                headers: { Authorization: "Bearer " + token, Accept: "text/event-stream" },
                signal: controller.signal, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
              });
              if (response.status === 401) { signOut(T.badToken); return; }
              if (!response.ok || !response.body) throw new Error("status " + response.status);
              $("live-status").textContent = T.live;
              const reader = response.body.getReader();
              const decoder = new TextDecoder();
              let buffer = "";
              for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer += decoder.decode(value, { stream: true });
                let end;
                while ((end = buffer.indexOf("\n\n")) >= 0) {
                  const block = buffer.slice(0, end);
                  buffer = buffer.slice(end + 2);
                  handleEvent(block);
                }
              }
            } catch (error) {
              if (controller.signal.aborted) return;
            }
            if (stream !== controller || !token) return;
            $("live-status").textContent = T.reconnecting;
            setTimeout(() => { if (stream === controller && token) listen(); }, 2000);
          }

          function handleEvent(block) {
            let name = "message";
            const data = [];
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) name = line.slice(6).trim();
              else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
            }
            if (name === "state" && data.length) {
              try { render(JSON.parse(data.join("\n"))); } catch (error) { /* a broken event is skipped */ }
            }
          }

          // MARK: Wiring
          $("sign-in-form").addEventListener("submit", (event) => {
            event.preventDefault();
            const candidate = $("token").value.trim();
            if (candidate) signIn(candidate);
          });
          $("sign-out").addEventListener("click", () => signOut(""));
          $("say-form").addEventListener("submit", (event) => {
            event.preventDefault();
            const text = $("say").value.trim();
            if (!text) return;
            $("say").value = "";
            say(text);
          });
          $("new-conversation").addEventListener("click", () => {
            conversation = null;
            retireChoices();
            $("say").focus();
          });
          $("undo").addEventListener("click", async () => {
            const reply = await api("POST", "/v1/undo", german ? { lang: "de" } : {});
            showAnswer(reply, "/v1/undo");
          });
          $("search-form").addEventListener("submit", (event) => {
            event.preventDefault();
            const query = $("q").value.trim();
            if (query) search(query);
          });
          if (token) signIn(token); else $("token").focus();
        })();
        """#
}
