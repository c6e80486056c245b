
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "%(card)s, any colour": "%(card)s, cualquier color",
    "%(card)s, any suit": "%(card)s, cualquier palo",
    "%(n)s cards left": "%(n)s cartas restantes",
    "%(n)s hand kept on this phone was sent and saved.": [
      "Se envi\u00f3 y guard\u00f3 %(n)s mano que esperaba en este tel\u00e9fono.",
      "Se enviaron y guardaron %(n)s manos que esperaban en este tel\u00e9fono.",
      "Se enviaron y guardaron %(n)s manos que esperaban en este tel\u00e9fono."
    ],
    "%(n)s hand waiting to send": [
      "%(n)s mano pendiente de enviar",
      "%(n)s manos pendientes de enviar",
      "%(n)s manos pendientes de enviar"
    ],
    "%(n)s left over": "sobran %(n)s",
    "%(n)s more column": [
      "%(n)s columna m\u00e1s",
      "%(n)s columnas m\u00e1s",
      "%(n)s columnas m\u00e1s"
    ],
    "%(n)s passes": "%(n)s pases",
    "%(n)s points": "%(n)s puntos",
    "%(n)s pts": "%(n)s pts",
    "%(n)s section for \u201c%(q)s\u201d": [
      "%(n)s secci\u00f3n para \u00ab%(q)s\u00bb",
      "%(n)s secciones para \u00ab%(q)s\u00bb",
      "%(n)s secciones para \u00ab%(q)s\u00bb"
    ],
    "%(n)s section for \u201c%(q)s\u201d in %(game)s": [
      "%(n)s secci\u00f3n para \u00ab%(q)s\u00bb en %(game)s",
      "%(n)s secciones para \u00ab%(q)s\u00bb en %(game)s",
      "%(n)s secciones para \u00ab%(q)s\u00bb en %(game)s"
    ],
    "%(n)s short": "faltan %(n)s",
    "%(n)s surplus": "%(n)s sobrantes",
    "%(n)s to enter": "faltan %(n)s",
    "%(name)s claimed": "%(name)s reclam\u00f3",
    "%(name)s went out": "%(name)s cerr\u00f3",
    "%(name)s won it": "%(name)s la gan\u00f3",
    "%(points)s pts": "%(points)s pts",
    "%(points)s pts + ?": "%(points)s pts + ?",
    "%(search_all)s for \u201c%(q)s\u201d": "%(search_all)s: \u00ab%(q)s\u00bb",
    "%(shown)s \u2014 take back %(card)s (%(points)s points)": [
      "%(shown)s \u2014 quitar %(card)s (%(points)s punto)",
      "%(shown)s \u2014 quitar %(card)s (%(points)s puntos)",
      "%(shown)s \u2014 quitar %(card)s (%(points)s puntos)"
    ],
    "%(shown)s \u2014 take back %(text)s, not a card": "%(shown)s \u2014 quitar %(text)s, no es una carta",
    "All %(n)s jokers in %(deck)s are already entered.": [
      "Ya est\u00e1 anotado %(n)s comod\u00edn (%(deck)s), el \u00fanico.",
      "Ya est\u00e1n anotados los %(n)s comodines (%(deck)s).",
      "Ya est\u00e1n anotados los %(n)s comodines (%(deck)s)."
    ],
    "All %(n)s \u00d7 %(card)s in %(deck)s are already entered.": [
      "Ya est\u00e1 anotada %(n)s \u00d7 %(card)s (%(deck)s).",
      "Ya est\u00e1n anotadas las %(n)s \u00d7 %(card)s (%(deck)s).",
      "Ya est\u00e1n anotadas las %(n)s \u00d7 %(card)s (%(deck)s)."
    ],
    "Any": "Cualquiera",
    "Auto": "Auto",
    "Bower: %(name)s": "Bower: %(name)s",
    "Cards for %(name)s": "Cartas de %(name)s",
    "Colours score nothing: record the value alone": "Los colores no punt\u00faan: anota solo el valor",
    "Colours: %(theme)s. Tap for %(next)s.": "Colores: %(theme)s. Toca para %(next)s.",
    "Copied.": "Copiado.",
    "Could not copy: select the lines above instead.": "No se pudo copiar: selecciona las l\u00edneas de arriba.",
    "Dark": "Oscuro",
    "Discard hand %(number)s's entry? It was never saved.": "\u00bfDescartar la entrada de la mano %(number)s? Nunca se guard\u00f3.",
    "Discard it": "Descartarla",
    "Done \u2713": "Listo \u2713",
    "Done: fold %(name)s's hand": "Listo: plegar las cartas de %(name)s",
    "Enter hand %(number)s": "Anotar la mano %(number)s",
    "Enter how many cards were left over.": "Indica cu\u00e1ntas cartas sobraron.",
    "Enter it as hand %(number)s": "Anotarla como mano %(number)s",
    "Fix it": "Corregir",
    "Go to the entry of hand %(number)s": "Ir a la entrada de la mano %(number)s",
    "Hand %(number)s": "Mano %(number)s",
    "Hand %(number)s is the game's last: the result shows once the hands waiting are sent.": "La mano %(number)s es la \u00faltima de la partida: el resultado aparece cuando se env\u00eden las manos pendientes.",
    "Hand %(number)s was not saved.": "La mano %(number)s no se guard\u00f3.",
    "Hand %(number)s was saved on another phone while this entry was being made: it was not sent.": "La mano %(number)s se guard\u00f3 en otro tel\u00e9fono mientras se hac\u00eda esta entrada: no se envi\u00f3.",
    "Hand %(number)s's entry was discarded.": "Se descart\u00f3 la entrada de la mano %(number)s.",
    "Hand %(other)s's entry is in the form as hand %(number)s: check it, then save.": "La entrada de la mano %(other)s est\u00e1 en el formulario como mano %(number)s: rev\u00edsala y luego gu\u00e1rdala.",
    "Hands you save are kept on this phone and sent when the connection returns.": "Las manos que guardes se quedan en este tel\u00e9fono y se env\u00edan cuando vuelva la conexi\u00f3n.",
    "If sent:": "Al enviarlas:",
    "It waits for a yes:": "Espera un s\u00ed:",
    "Joker": "Comod\u00edn",
    "Keys: 0\u20139 add that card, S skip, R reverse, D draw two, W wild, F wild draw four; Backspace takes the last card back; arrows move between the buttons.": "Teclas: 0\u20139 a\u00f1aden esa carta, S salto, R cambio de sentido, D roba dos, W comod\u00edn, F comod\u00edn roba cuatro; Retroceso quita la \u00faltima carta; las flechas pasan de un bot\u00f3n a otro.",
    "Keys: A K Q J, 2\u20139, 0 for 10, X for a joker; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.": "Teclas: A K Q J (as, rey, reina, jota), 2\u20139, 0 para el 10, X para un comod\u00edn; S H D C eligen el palo de la siguiente carta (picas, corazones, diamantes, tr\u00e9boles); Retroceso quita la \u00faltima carta; las flechas pasan de un bot\u00f3n a otro.",
    "Keys: A K Q J, 2\u20139, 0 for 10; S H D C pick the suit of the next card; Backspace takes the last card back; arrows move between the buttons.": "Teclas: A K Q J (as, rey, reina, jota), 2\u20139, 0 para el 10; S H D C eligen el palo de la siguiente carta (picas, corazones, diamantes, tr\u00e9boles); Retroceso quita la \u00faltima carta; las flechas pasan de un bot\u00f3n a otro.",
    "Light": "Claro",
    "Link copied.": "Enlace copiado.",
    "Next: %(name)s \u203a": "Siguiente: %(name)s \u203a",
    "Next: %(name)s's hand": "Siguiente: %(name)s, cartas en la mano",
    "No cards yet": "A\u00fan no hay cartas",
    "No more hands": "No hay m\u00e1s manos",
    "Not complete yet:": "A\u00fan no est\u00e1 completa:",
    "Not saved": "No se guard\u00f3",
    "Nothing in the rules matches \u201c%(q)s\u201d in %(game)s.": "Nada en las reglas de %(game)s coincide con \u00ab%(q)s\u00bb.",
    "Nothing in the rules matches \u201c%(q)s\u201d.": "Nada en las reglas coincide con \u00ab%(q)s\u00bb.",
    "Offline.": "Sin conexi\u00f3n.",
    "Offline: %(n)s change kept on this phone, sent when back online.": [
      "Sin conexi\u00f3n: %(n)s cambio guardado en este tel\u00e9fono, se enviar\u00e1 al volver a estar en l\u00ednea.",
      "Sin conexi\u00f3n: %(n)s cambios guardados en este tel\u00e9fono, se enviar\u00e1n al volver a estar en l\u00ednea.",
      "Sin conexi\u00f3n: %(n)s cambios guardados en este tel\u00e9fono, se enviar\u00e1n al volver a estar en l\u00ednea."
    ],
    "Offline: searching the rules saved on this device.": "Sin conexi\u00f3n: se buscan las reglas guardadas en este dispositivo.",
    "Offline: that needs the connection. Hands you save are kept on this phone.": "Sin conexi\u00f3n: para eso hace falta conexi\u00f3n. Las manos que guardes se quedan en este tel\u00e9fono.",
    "Opening it\u2026": "Abri\u00e9ndola\u2026",
    "Paused": "En pausa",
    "Pot so far %(pot)s": "Bote hasta ahora: %(pot)s",
    "Ready: %(time)s": "Listo: %(time)s",
    "Red aces are live for the dealer this hand (%(what)s).": "Los ases rojos est\u00e1n activos para el repartidor en esta mano (%(what)s).",
    "Red aces are not live this hand (%(what)s; live within %(within)s either way).": "Los ases rojos no est\u00e1n activos en esta mano (%(what)s; activos con una diferencia de hasta %(within)s en cualquier sentido).",
    "Replace the entry in progress for hand %(number)s with hand %(other)s's?": "\u00bfReemplazar la entrada en curso de la mano %(number)s por la de la mano %(other)s?",
    "Result copied.": "Resultado copiado.",
    "Resume %(name)s": "Reanudar %(name)s",
    "Running": "En marcha",
    "Save anyway": "Guardar de todos modos",
    "Save anyway?": "\u00bfGuardar de todos modos?",
    "Save hand %(number)s": "Guardar la mano %(number)s",
    "Search all games": "Buscar en todos los juegos",
    "Select the link above and copy it.": "Selecciona el enlace de arriba y c\u00f3pialo.",
    "Select the link and copy it.": "Selecciona el enlace y c\u00f3pialo.",
    "Select the result and copy it.": "Selecciona el resultado y c\u00f3pialo.",
    "Send now": "Enviar ahora",
    "Sharing did not work here: copy or download instead.": "Compartir no ha funcionado aqu\u00ed: copia o descarga en su lugar.",
    "Sharing did not work: copy the link instead.": "Compartir no ha funcionado: copia el enlace en su lugar.",
    "Sign in": "Iniciar sesi\u00f3n",
    "Sign in again: the hands kept on this phone are sent once you are signed in.": "Vuelve a iniciar sesi\u00f3n: las manos guardadas en este tel\u00e9fono se env\u00edan en cuanto inicies sesi\u00f3n.",
    "Signed in as %(user)s": "Sesi\u00f3n iniciada como %(user)s",
    "Standings if the hands waiting are sent": "Clasificaci\u00f3n si se env\u00edan las manos pendientes",
    "Start %(name)s": "Iniciar %(name)s",
    "Suits score nothing: record the rank alone": "Los palos no punt\u00faan: anota solo el valor",
    "The game is gone: it was deleted, or it is no longer shared with you.": "La partida ya no est\u00e1: se borr\u00f3 o ya no se comparte contigo.",
    "The rules could not be loaded. Check the connection, or open them in a new tab.": "No se pudieron cargar las reglas. Comprueba la conexi\u00f3n o \u00e1brelas en una pesta\u00f1a nueva.",
    "The score sheet goes on: %(left)s to the left.": "La hoja contin\u00faa: %(left)s a la izquierda.",
    "The score sheet goes on: %(right)s to the right, %(left)s to the left. Scroll sideways to see them.": "La hoja contin\u00faa: %(right)s a la derecha, %(left)s a la izquierda. Despl\u00e1zate hacia los lados para verlas.",
    "The score sheet goes on: %(right)s to the right. Scroll sideways to see them.": "La hoja contin\u00faa: %(right)s a la derecha. Despl\u00e1zate hacia los lados para verlas.",
    "The server refused it (%(status)s).": "El servidor la rechaz\u00f3 (%(status)s).",
    "There is only %(n)s \u00d7 %(card)s in %(deck)s, all entered.": [
      "Solo hay %(n)s \u00d7 %(card)s (%(deck)s), ya anotada.",
      "Solo hay %(n)s \u00d7 %(card)s (%(deck)s), todas ya anotadas.",
      "Solo hay %(n)s \u00d7 %(card)s (%(deck)s), todas ya anotadas."
    ],
    "This hand's other facts show once the hands waiting are sent.": "Los dem\u00e1s datos de esta mano aparecen cuando se env\u00eden las manos pendientes.",
    "Time's up!": "\u00a1Se acab\u00f3 el tiempo!",
    "Try one word a player would say: wild, skip, ante, bower, last card.": "Prueba con una palabra que dir\u00eda un jugador: comod\u00edn, salto, apuesta, bower, \u00faltima carta.",
    "Undo": "Deshacer",
    "Went out (or won): %(name)s": "Cerr\u00f3 (o gan\u00f3): %(name)s",
    "What this entry shows of the scores is as before the hands waiting to send: the server scores this hand from the right ones once they are sent.": "Los puntos que muestra esta entrada son los de antes de las manos pendientes de enviar: el servidor punt\u00faa esta mano con los correctos en cuanto se env\u00eden.",
    "With the hands waiting to send": "Con las manos pendientes de enviar",
    "You may not change this sheet any more.": "Ya no puedes cambiar esta hoja.",
    "a joker": "un comod\u00edn",
    "bower with %(name)s": "bower con %(name)s",
    "came out exactly": "sali\u00f3 exacto",
    "card": [
      "carta",
      "cartas",
      "cartas"
    ],
    "cards %(cards)s": "cartas %(cards)s",
    "clockwise \u21bb": "en sentido horario \u21bb",
    "clubs": "tr\u00e9boles",
    "counted": "contados",
    "counter-clockwise \u21ba": "en sentido antihorario \u21ba",
    "diamonds": "diamantes",
    "hand %(number)s": "mano %(number)s",
    "hearts": "corazones",
    "next try in %(seconds)s s": "pr\u00f3ximo intento en %(seconds)s s",
    "nothing entered": "nada anotado",
    "out": "cerr\u00f3",
    "out +%(points)s": "cerr\u00f3 +%(points)s",
    "player %(id)s": "jugador %(id)s",
    "scores %(points)s": "se lleva %(points)s",
    "sending\u2026": "enviando\u2026",
    "sent when back online": "se env\u00eda al volver a estar en l\u00ednea",
    "spades": "picas",
    "suit %(suit)s": "palo %(suit)s",
    "surplus %(cards)s": "sobrante %(cards)s",
    "this player": "este jugador",
    "timer": "temporizador",
    "waiting to send": "pendiente de enviar",
    "went out": "cerr\u00f3",
    "who went out?": "\u00bfqui\u00e9n cerr\u00f3?",
    "with waiting": "con pendientes",
    "\u00b7 after the hands waiting to send": "\u00b7 despu\u00e9s de las manos pendientes de enviar",
    "\u00b7 dealer %(dealer)s \u00b7 after the hands waiting to send": "\u00b7 repartidor %(dealer)s \u00b7 despu\u00e9s de las manos pendientes de enviar",
    "\u2013 pts": "\u2013 pts",
    "\u2014 add %(card)s, %(points)s points": [
      "\u2014 a\u00f1adir %(card)s, %(points)s punto",
      "\u2014 a\u00f1adir %(card)s, %(points)s puntos",
      "\u2014 a\u00f1adir %(card)s, %(points)s puntos"
    ],
    "\u2014 add %(card)s, %(points)s points (%(mark)s)": [
      "\u2014 a\u00f1adir %(card)s, %(points)s punto (%(mark)s)",
      "\u2014 a\u00f1adir %(card)s, %(points)s puntos (%(mark)s)",
      "\u2014 a\u00f1adir %(card)s, %(points)s puntos (%(mark)s)"
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
    "DATETIME_FORMAT": "j b Y, H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d/%m/%Y %H:%M:%S",
      "%d/%m/%Y %H:%M:%S.%f",
      "%d/%m/%Y %H:%M",
      "%d/%m/%y %H:%M:%S",
      "%d/%m/%y %H:%M:%S.%f",
      "%d/%m/%y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j b Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%d/%m/%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j b",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d/m/Y H:i",
    "SHORT_DATE_FORMAT": "d/m/Y",
    "THOUSAND_SEPARATOR": "\u00a0",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F \\d\\e Y"
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

