
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n != 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(card)s, any colour": "%(card)s, beliebige Farbe",
    "%(card)s, any suit": "%(card)s, beliebige Farbe",
    "%(n)s cards left": "%(n)s Karten \u00fcbrig",
    "%(n)s hand kept on this phone was sent and saved.": [
      "%(n)s auf diesem Handy aufbewahrte Runde wurde gesendet und gespeichert.",
      "%(n)s auf diesem Handy aufbewahrte Runden wurden gesendet und gespeichert."
    ],
    "%(n)s hand waiting to send": [
      "%(n)s Runde wartet auf das Senden",
      "%(n)s Runden warten auf das Senden"
    ],
    "%(n)s left over": "%(n)s \u00fcbrig",
    "%(n)s more column": [
      "%(n)s weitere Spalte",
      "%(n)s weitere Spalten"
    ],
    "%(n)s passes": "%(n)s-mal gepasst",
    "%(n)s points": "%(n)s Punkte",
    "%(n)s pts": "%(n)s Pkt.",
    "%(n)s section for \u201c%(q)s\u201d": [
      "%(n)s Abschnitt zu \u201e%(q)s\u201c",
      "%(n)s Abschnitte zu \u201e%(q)s\u201c"
    ],
    "%(n)s section for \u201c%(q)s\u201d in %(game)s": [
      "%(n)s Abschnitt zu \u201e%(q)s\u201c in %(game)s",
      "%(n)s Abschnitte zu \u201e%(q)s\u201c in %(game)s"
    ],
    "%(n)s short": "%(n)s zu wenig",
    "%(n)s surplus": "%(n)s \u00dcberschuss",
    "%(n)s to enter": "%(n)s noch einzutragen",
    "%(name)s claimed": "%(name)s hat beansprucht",
    "%(name)s went out": "%(name)s hat ausgemacht",
    "%(name)s won it": "%(name)s hat sie gewonnen",
    "%(points)s pts": "%(points)s Pkt.",
    "%(points)s pts + ?": "%(points)s Pkt. + ?",
    "%(search_all)s for \u201c%(q)s\u201d": "%(search_all)s nach \u201e%(q)s\u201c",
    "%(shown)s \u2014 take back %(card)s (%(points)s points)": [
      "%(shown)s \u2014 %(card)s zur\u00fccknehmen (%(points)s Punkt)",
      "%(shown)s \u2014 %(card)s zur\u00fccknehmen (%(points)s Punkte)"
    ],
    "%(shown)s \u2014 take back %(text)s, not a card": "%(shown)s \u2014 %(text)s zur\u00fccknehmen, keine Karte",
    "All %(n)s jokers in %(deck)s are already entered.": [
      "Der %(n)s Joker (%(deck)s) ist schon eingetragen.",
      "Alle %(n)s Joker (%(deck)s) sind schon eingetragen."
    ],
    "All %(n)s \u00d7 %(card)s in %(deck)s are already entered.": [
      "%(n)s \u00d7 %(card)s (%(deck)s) ist schon eingetragen.",
      "Alle %(n)s \u00d7 %(card)s (%(deck)s) sind schon eingetragen."
    ],
    "Any": "Beliebig",
    "Auto": "Auto",
    "Bower: %(name)s": "Bower: %(name)s",
    "Cards for %(name)s": "Karten von %(name)s",
    "Colours score nothing: record the value alone": "Farben z\u00e4hlen keine Punkte: Trag nur den Wert ein",
    "Colours: %(theme)s. Tap for %(next)s.": "Farben: %(theme)s. Tippen f\u00fcr %(next)s.",
    "Copied.": "Kopiert.",
    "Could not copy: select the lines above instead.": "Kopieren ging nicht: Markiere stattdessen die Zeilen oben.",
    "Dark": "Dunkel",
    "Discard hand %(number)s's entry? It was never saved.": "Die Eingabe von Runde %(number)s verwerfen? Sie wurde nie gespeichert.",
    "Discard it": "Verwerfen",
    "Done \u2713": "Fertig \u2713",
    "Done: fold %(name)s's hand": "Fertig: Karten von %(name)s zuklappen",
    "Enter hand %(number)s": "Runde %(number)s eintragen",
    "Enter how many cards were left over.": "Gib ein, wie viele Karten \u00fcbrig geblieben sind.",
    "Enter it as hand %(number)s": "Als Runde %(number)s eintragen",
    "Fix it": "Korrigieren",
    "Go to the entry of hand %(number)s": "Zur Eingabe von Runde %(number)s",
    "Hand %(number)s": "Runde %(number)s",
    "Hand %(number)s is the game's last: the result shows once the hands waiting are sent.": "Runde %(number)s ist die letzte der Partie: Das Ergebnis erscheint, sobald die wartenden Runden gesendet sind.",
    "Hand %(number)s was not saved.": "Runde %(number)s wurde nicht gespeichert.",
    "Hand %(number)s was saved on another phone while this entry was being made: it was not sent.": "Runde %(number)s wurde auf einem anderen Handy gespeichert, w\u00e4hrend diese Eingabe lief: Sie wurde nicht gesendet.",
    "Hand %(number)s's entry was discarded.": "Die Eingabe von Runde %(number)s wurde verworfen.",
    "Hand %(other)s's entry is in the form as hand %(number)s: check it, then save.": "Die Eingabe von Runde %(other)s steht jetzt als Runde %(number)s im Formular: Pr\u00fcfe sie und speichere dann.",
    "Hands you save are kept on this phone and sent when the connection returns.": "Runden, die du speicherst, bleiben auf diesem Handy und werden gesendet, sobald die Verbindung zur\u00fcck ist.",
    "If sent:": "Nach dem Senden:",
    "It waits for a yes:": "Sie wartet auf ein Ja:",
    "Joker": "Joker",
    "Keys: 0\u20139 add that card, S skip, R reverse, D draw two, W wild, F wild draw four; Backspace takes the last card back; arrows move between the buttons.": "Tasten: 0\u20139 f\u00fcgen diese Karte hinzu, S Aussetzen, R Richtungswechsel, D Zieh zwei, W Farbwahl, F Farbwahl Zieh vier; die R\u00fccktaste nimmt die letzte Karte zur\u00fcck; die Pfeiltasten wechseln zwischen den Schaltfl\u00e4chen.",
    "Keys: A K Q J, 2\u20139, 0 for 10, X for a joker; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.": "Tasten: A K Q J (Ass, K\u00f6nig, Dame, Bube), 2\u20139, 0 f\u00fcr 10, X f\u00fcr einen Joker; S H D C w\u00e4hlen die Farbe der n\u00e4chsten Karte (Pik, Herz, Karo, Kreuz); die R\u00fccktaste nimmt die letzte Karte zur\u00fcck; die Pfeiltasten wechseln zwischen den Schaltfl\u00e4chen.",
    "Keys: A K Q J, 2\u20139, 0 for 10; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.": "Tasten: A K Q J (Ass, K\u00f6nig, Dame, Bube), 2\u20139, 0 f\u00fcr 10; S H D C w\u00e4hlen die Farbe der n\u00e4chsten Karte (Pik, Herz, Karo, Kreuz); die R\u00fccktaste nimmt die letzte Karte zur\u00fcck; die Pfeiltasten wechseln zwischen den Schaltfl\u00e4chen.",
    "Light": "Hell",
    "Link copied.": "Link kopiert.",
    "Next: %(name)s \u203a": "Weiter: %(name)s \u203a",
    "Next: %(name)s's hand": "Weiter: %(name)s, Karten auf der Hand",
    "No cards yet": "Noch keine Karten",
    "No more hands": "Keine weiteren Runden",
    "Not complete yet:": "Noch nicht vollst\u00e4ndig:",
    "Not saved": "Nicht gespeichert",
    "Nothing in the rules matches \u201c%(q)s\u201d in %(game)s.": "Nichts in den Regeln von %(game)s passt zu \u201e%(q)s\u201c.",
    "Nothing in the rules matches \u201c%(q)s\u201d.": "Nichts in den Regeln passt zu \u201e%(q)s\u201c.",
    "Offline.": "Offline.",
    "Offline: %(n)s change kept on this phone, sent when back online.": [
      "Offline: %(n)s \u00c4nderung auf diesem Handy aufbewahrt, wird gesendet, sobald du wieder online bist.",
      "Offline: %(n)s \u00c4nderungen auf diesem Handy aufbewahrt, werden gesendet, sobald du wieder online bist."
    ],
    "Offline: searching the rules saved on this device.": "Offline: Es werden die auf diesem Ger\u00e4t gespeicherten Regeln durchsucht.",
    "Offline: that needs the connection. Hands you save are kept on this phone.": "Offline: Daf\u00fcr braucht es eine Verbindung. Runden, die du speicherst, bleiben auf diesem Handy.",
    "Opening it\u2026": "Wird ge\u00f6ffnet \u2026",
    "Paused": "Pausiert",
    "Pot so far %(pot)s": "Pott bisher %(pot)s",
    "Ready: %(time)s": "Bereit: %(time)s",
    "Red aces are live for the dealer this hand (%(what)s).": "Die roten Asse sind in dieser Runde f\u00fcr den Geber aktiv (%(what)s).",
    "Red aces are not live this hand (%(what)s; live within %(within)s either way).": "Die roten Asse sind in dieser Runde nicht aktiv (%(what)s; aktiv bei h\u00f6chstens %(within)s Abweichung in jede Richtung).",
    "Replace the entry in progress for hand %(number)s with hand %(other)s's?": "Die angefangene Eingabe f\u00fcr Runde %(number)s durch die von Runde %(other)s ersetzen?",
    "Result copied.": "Ergebnis kopiert.",
    "Resume %(name)s": "%(name)s fortsetzen",
    "Running": "L\u00e4uft",
    "Save anyway": "Trotzdem speichern",
    "Save anyway?": "Trotzdem speichern?",
    "Save hand %(number)s": "Runde %(number)s speichern",
    "Search all games": "Alle Spiele durchsuchen",
    "Select the link above and copy it.": "Markiere den Link oben und kopiere ihn.",
    "Select the link and copy it.": "Markiere den Link und kopiere ihn.",
    "Select the result and copy it.": "Markiere das Ergebnis und kopiere es.",
    "Send now": "Jetzt senden",
    "Sharing did not work here: copy or download instead.": "Teilen hat hier nicht geklappt: Kopiere oder lade stattdessen herunter.",
    "Sharing did not work: copy the link instead.": "Teilen hat nicht geklappt: Kopiere stattdessen den Link.",
    "Sign in": "Anmelden",
    "Sign in again: the hands kept on this phone are sent once you are signed in.": "Melde dich wieder an: Die auf diesem Handy aufbewahrten Runden werden gesendet, sobald du angemeldet bist.",
    "Signed in as %(user)s": "Angemeldet als %(user)s",
    "Standings if the hands waiting are sent": "Stand, wenn die wartenden Runden gesendet sind",
    "Start %(name)s": "%(name)s starten",
    "Suits score nothing: record the rank alone": "Farben z\u00e4hlen keine Punkte: Trag nur den Rang ein",
    "The game is gone: it was deleted, or it is no longer shared with you.": "Die Partie ist nicht mehr da: Sie wurde gel\u00f6scht oder wird nicht mehr mit dir geteilt.",
    "The rules could not be loaded. Check the connection, or open them in a new tab.": "Die Regeln konnten nicht geladen werden. Pr\u00fcfe die Verbindung oder \u00f6ffne sie in einem neuen Tab.",
    "The score sheet goes on: %(left)s to the left.": "Das Spielblatt geht weiter: %(left)s links.",
    "The score sheet goes on: %(right)s to the right, %(left)s to the left. Scroll sideways to see them.": "Das Spielblatt geht weiter: %(right)s rechts, %(left)s links. Scrolle seitw\u00e4rts, um sie zu sehen.",
    "The score sheet goes on: %(right)s to the right. Scroll sideways to see them.": "Das Spielblatt geht weiter: %(right)s rechts. Scrolle seitw\u00e4rts, um sie zu sehen.",
    "The server refused it (%(status)s).": "Der Server hat sie abgelehnt (%(status)s).",
    "There is only %(n)s \u00d7 %(card)s in %(deck)s, all entered.": [
      "Nur %(n)s \u00d7 %(card)s (%(deck)s), schon eingetragen.",
      "Nur %(n)s \u00d7 %(card)s (%(deck)s), alle schon eingetragen."
    ],
    "This hand's other facts show once the hands waiting are sent.": "Die \u00fcbrigen Angaben zu dieser Runde erscheinen, sobald die wartenden Runden gesendet sind.",
    "Time's up!": "Zeit ist um!",
    "Try one word a player would say: wild, skip, ante, bower, last card.": "Versuch es mit einem Wort, das ein Spieler sagen w\u00fcrde: Farbwahl, Aussetzen, Einsatz, Bower, letzte Karte.",
    "Undo": "R\u00fcckg\u00e4ngig",
    "Went out (or won): %(name)s": "Ausgemacht (oder gewonnen): %(name)s",
    "What this entry shows of the scores is as before the hands waiting to send: the server scores this hand from the right ones once they are sent.": "Die Punkte in dieser Eingabe sind der Stand vor den noch nicht gesendeten Runden: Der Server wertet diese Runde mit dem richtigen Stand, sobald sie gesendet sind.",
    "With the hands waiting to send": "Mit den noch nicht gesendeten Runden",
    "You may not change this sheet any more.": "Du darfst dieses Spielblatt nicht mehr \u00e4ndern.",
    "a joker": "einen Joker",
    "bower with %(name)s": "Bower bei %(name)s",
    "came out exactly": "ging genau auf",
    "card": [
      "Karte",
      "Karten"
    ],
    "cards %(cards)s": "Karten %(cards)s",
    "clockwise \u21bb": "im Uhrzeigersinn \u21bb",
    "clubs": "Kreuz",
    "counted": "gez\u00e4hlt",
    "counter-clockwise \u21ba": "gegen den Uhrzeigersinn \u21ba",
    "diamonds": "Karo",
    "hand %(number)s": "Runde %(number)s",
    "hearts": "Herz",
    "next try in %(seconds)s s": "n\u00e4chster Versuch in %(seconds)s s",
    "nothing entered": "nichts eingetragen",
    "out": "ausgemacht",
    "out +%(points)s": "ausgemacht +%(points)s",
    "player %(id)s": "Spieler %(id)s",
    "scores %(points)s": "erh\u00e4lt %(points)s",
    "sending\u2026": "wird gesendet \u2026",
    "sent when back online": "wird gesendet, sobald du wieder online bist",
    "spades": "Pik",
    "suit %(suit)s": "Farbe %(suit)s",
    "surplus %(cards)s": "\u00dcberschuss %(cards)s",
    "this player": "diesem Spieler",
    "timer": "Timer",
    "waiting to send": "noch nicht gesendet",
    "went out": "hat ausgemacht",
    "who went out?": "wer hat ausgemacht?",
    "with waiting": "mit offenen",
    "\u00b7 after the hands waiting to send": "\u00b7 nach den noch nicht gesendeten Runden",
    "\u00b7 dealer %(dealer)s \u00b7 after the hands waiting to send": "\u00b7 Geber %(dealer)s \u00b7 nach den noch nicht gesendeten Runden",
    "\u2013 pts": "\u2013 Pkt.",
    "\u2014 add %(card)s, %(points)s points": [
      "\u2014 %(card)s hinzuf\u00fcgen, %(points)s Punkt",
      "\u2014 %(card)s hinzuf\u00fcgen, %(points)s Punkte"
    ],
    "\u2014 add %(card)s, %(points)s points (%(mark)s)": [
      "\u2014 %(card)s hinzuf\u00fcgen, %(points)s Punkt (%(mark)s)",
      "\u2014 %(card)s hinzuf\u00fcgen, %(points)s Punkte (%(mark)s)"
    ]
  };
  for (const key in newcatalog) {
    django.catalog[key] = newcatalog[key];
  }
  

  if (!django.jsi18n_initialized) {
    django.gettext = function(msgid) {
      const value = django.catalog[msgid];
      if (typeof value === 'undefined') {
        return msgid;
      } else {
        return (typeof value === 'string') ? value : value[0];
      }
    };

    django.ngettext = function(singular, plural, count) {
      const value = django.catalog[singular];
      if (typeof value === 'undefined') {
        return (count == 1) ? singular : plural;
      } else {
        return value.constructor === Array ? value[django.pluralidx(count)] : value;
      }
    };

    django.gettext_noop = function(msgid) { return msgid; };

    django.pgettext = function(context, msgid) {
      let value = django.gettext(context + '\x04' + msgid);
      if (value.includes('\x04')) {
        value = msgid;
      }
      return value;
    };

    django.npgettext = function(context, singular, plural, count) {
      let value = django.ngettext(context + '\x04' + singular, context + '\x04' + plural, count);
      if (value.includes('\x04')) {
        value = django.ngettext(singular, plural, count);
      }
      return value;
    };

    django.interpolate = function(fmt, obj, named) {
      if (named) {
        return fmt.replace(/%\(\w+\)s/g, function(match){return String(obj[match.slice(2,-2)])});
      } else {
        return fmt.replace(/%s/g, function(match){return String(obj.shift())});
      }
    };


    /* formatting library */

    django.formats = {
    "DATETIME_FORMAT": "j. M Y, H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d.%m.%Y %H:%M:%S",
      "%d.%m.%Y %H:%M:%S.%f",
      "%d.%m.%Y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j. M Y",
    "DATE_INPUT_FORMATS": [
      "%d.%m.%Y",
      "%d.%m.%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j. M",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d.m.Y H:i",
    "SHORT_DATE_FORMAT": "d.m.Y",
    "THOUSAND_SEPARATOR": ".",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F Y"
  };

    django.get_format = function(format_type) {
      const value = django.formats[format_type];
      if (typeof value === 'undefined') {
        return format_type;
      } else {
        return value;
      }
    };

    /* add to global namespace */
    globals.pluralidx = django.pluralidx;
    globals.gettext = django.gettext;
    globals.ngettext = django.ngettext;
    globals.gettext_noop = django.gettext_noop;
    globals.pgettext = django.pgettext;
    globals.npgettext = django.npgettext;
    globals.interpolate = django.interpolate;
    globals.get_format = django.get_format;

    django.jsi18n_initialized = true;
  }
};

