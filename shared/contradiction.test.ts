import { describe, expect, it } from 'vitest';
import { contradictsAnswer, withoutPushback } from './contradiction.ts';

describe('contradictsAnswer', () => {
  it.each([
    "That's wrong, the window is 30 days",
    'No, I asked about opened items',
    'Nope.',
    'no that is not what I asked',
    'This is not correct: refunds take 14 days',
    'It was completely outdated',
    'You are wrong about the fee',
    'Are you sure? The policy page says otherwise',
    "That can't be right",
    'Actually the deadline is April 30, not March 30',
    'That’s not what I meant',
    '不对，退款期限是30天',
    '你确定吗？',
    '这个说错了',
    "Actually, it's 30 days",
    'Actually no, I meant opened items',
    'actually that is not the policy',
    '错了。退款期限是30天',
    '不对吧？',
    '你说错了，是30天',
    '这不对',
    '答案不准确。',
    '你确定退款期限是30天吗？',
    '退款期限是30天吗？你确定？',
    '不是这样的，我问的是拆封的商品',
  ])('takes "%s" as pushing back', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(true);
  });

  it.each([
    "What's wrong with my order?",
    'No refunds for opened items?',
    'Is it wrong to return a gift?',
    'How do I report an incorrect charge?',
    'What about shipping to Canada?',
    'Can I get a refund after 30 days?',
    '退款需要多久？',
    'Actually, what about shipping?',
    'Actually I have another question',
    'Actually, can I return it?',
    // The words of a pushback inside a question about something else.
    '如果地址填错了怎么办？',
    '密码输错了会锁定吗？',
    '信息不对称是什么意思？',
    '不准确的地址怎么修改？',
    '订单错了，怎么改？',
    '是不是这样操作？',
    '',
    'It says "incorrect" when I log in, why?',
    'My login shows (incorrect) next to the email',
    'Error: incorrect.',
    'No. of items in a box?',
    'No. 5 is missing from my order',
    'The form says (inexact) next to the field',
    'Is it safe?',
    'I want to pay by card. Is it safe?',
  ])('takes "%s" as a question, not a pushback', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(false);
  });
});

/** Per language, follow-ups that push back and questions with the same words that do not. */
const LANGUAGES: Record<string, { pushbacks: string[]; questions: string[] }> = {
  Spanish: {
    pushbacks: [
      'Eso está mal, el plazo es de 30 días',
      'esto esta mal',
      'La respuesta es incorrecta.',
      'No es cierto.',
      'No, eso no es lo que pregunté',
      'Te equivocas, son 30 días',
      '¿Estás seguro?',
      '¿Está seguro?',
      'ESO NO ES ASÍ',
      // Without the opening "¿", and "está" (usted) opening a sentence.
      'Está seguro?',
      'Estás seguro?',
      'esta segura?',
      'Son 30 días. ¿Está seguro?',
      '¿Está seguro de que son 30 días?',
      // After a connective or a line break.
      'Pero ¿está seguro?',
      'Gracias, ¿está seguro?',
      'Son 30 días\n¿Está seguro?',
      'Son 30 días\nEstás seguro?',
      '¿Estás seguro de esto?',
      // A line break before a capital opens a sentence; a comma or line break after a value stated, which is not what may be safe.
      'Son 30 días\nEstá seguro?',
      'Son 30 días, ¿está seguro?',
      'Son 30 días, está seguro?',
      'son 30 dias\nesta seguro?',
      'El plazo es de 14 días, ¿está segura de eso?',
      'Son 30 días\nNo es cierto.',
    ],
    questions: [
      '¿Esto es falso o verdadero?',
      '¿Qué pasa si la dirección está mal?',
      '¿No hay reembolso para artículos abiertos?',
      '¿Está mal devolver un regalo?',
      'No es correcto pagar dos veces, ¿verdad?',
      '¿Está seguro el pago con tarjeta?',
      // "Is it safe?" after what it is about.
      'El pago con tarjeta, ¿está seguro?',
      '¿El pago está seguro?',
      'Pero ¿está seguro el pago?',
      'La dirección está mal, ¿cómo la cambio?',
      '¿Por qué no es así en mi país?',
      '¿Es seguro el fármaco?',
      'Es seguro?',
      'El pago con tarjeta, está seguro?',
      // Wrapped by hand.
      'El pago con tarjeta\nestá seguro?',
      'Tengo 2 tarjetas, ¿está seguro el pago?',
      'Mi tarjeta\nno es correcta, ¿verdad?',
      // A number in what is named, not a value stated: "is it safe?" still.
      'El pago de 30 euros, ¿está seguro?',
      'Mi contraseña tiene 8 letras, ¿está segura?',
      'El pago de 30 euros con tarjeta\nestá seguro?',
    ],
  },
  French: {
    pushbacks: [
      "C'est faux, c'est 30 jours",
      'C’est faux.',
      "Ce n'est pas vrai",
      'Non, ce n’est pas ce que j’ai demandé',
      'La réponse est incorrecte',
      'Vous vous trompez sur les frais',
      'Vous êtes sûr ?',
      'tu es sur ?',
      'Vous en êtes sûr ?',
      'Tu en es sûr ?',
      'vous en etes sur ?',
      "T'en es sûr ?",
      'En êtes-vous sûr ?',
    ],
    questions: [
      'Le site affiche : incorrect. Que faire ?',
      "C'est faux ou vrai ?",
      'Le formulaire dit (inexact) à côté du champ',
      "Qu'est-ce qui est faux dans ma commande ?",
      'Non remboursable, les articles ouverts ?',
      'Que faire si mon adresse est incorrecte ?',
      'Vous êtes sur la bonne page pour les remboursements ?',
      "C'est vraiment 30 jours ?",
      'Vous en êtes sur la page des remboursements ?',
      'Il en est sûr ?',
      'Le site est sûr ?',
    ],
  },
  German: {
    pushbacks: [
      'Das ist falsch, es sind 30 Tage',
      'Das stimmt nicht.',
      'Stimmt nicht, ich meinte geöffnete Artikel',
      'Nein, das ist nicht richtig',
      'Die Antwort ist leider falsch',
      'Du irrst dich',
      'Sind Sie sicher?',
      'Bist du dir sicher, dass es 30 Tage sind?',
      'Das habe ich nicht gefragt',
      // "Sind Sie sicher" opening a sentence, not only the text.
      'Es sind 30 Tage? Sind Sie sicher?',
      'Auf der Seite steht etwas anderes. Sind Sie da sicher?',
      'Danke! Sind Sie sicher, dass es 30 Tage sind?',
      'Aber sind Sie sicher?',
      'Es sind 30 Tage\nSind Sie sicher?',
      'Es sind 30 Tage, sind Sie sicher?',
    ],
    questions: [
      'Ist das falsch oder richtig?',
      'Was ist falsch an meiner Bestellung?',
      'Nein-Stimmen zählen nicht?',
      'Ist das falsch, wenn ich ein Geschenk zurückgebe?',
      'Das stimmt nicht mit meiner Rechnung überein, was tun?',
      'Was stimmt nicht mit meinem Konto?',
      'Was mache ich, wenn die Adresse falsch ist?',
      'Meine Daten, sind sie sicher?',
      'Wann sind sie sicher?',
      'Ich habe zwei Konten: sind sie sicher?',
      'Meine Daten\nsind sie sicher?',
      'Ich habe 2 Konten, sind sie sicher?',
      'Meine 2 Konten\nsind sie sicher?',
    ],
  },
  Portuguese: {
    pushbacks: [
      'Isso está errado, são 30 dias',
      'isso esta errado',
      'Não, não foi isso que eu perguntei',
      'Não é verdade.',
      'Você se enganou',
      'Tem certeza?',
      'Você tem certeza de que são 30 dias?',
      'A resposta não está correta',
      'São 30 dias? Tem certeza?',
      'Obrigado. Tem a certeza?',
      'Tens certeza?',
      'Mas tem certeza?',
      'Ok, tem certeza?',
      'Tem certeza disso?',
      // Right after a comma no other subject stands before it.
      'Isso, tem a certeza?',
      'São 30 dias, tem certeza?',
      'São 30 dias\nTem certeza?',
      'São 30 dias, tem a certeza?',
    ],
    questions: [
      'O que faço se o endereço estiver errado?',
      'O endereço está errado, como corrijo?',
      'Não há reembolso para itens abertos?',
      'Não é verdade que o prazo é de 30 dias?',
      'É falso dizer que o frete é grátis?',
      // "Tem certeza" with another subject: does anyone know for sure?
      'Alguém tem certeza sobre o prazo?',
      'Ninguém tem certeza do prazo?',
      'O prazo, quem tem certeza?',
      'Sobre o prazo, alguém tem certeza?',
      'O pagamento de 30 euros\ntem certeza?',
    ],
  },
  Italian: {
    pushbacks: [
      'È sbagliato, sono 30 giorni',
      "Questo e' sbagliato",
      'Non è vero.',
      'Ti sbagli.',
      'Sei sicuro?',
      // "Are you sure?" with Lei.
      'Ne è sicuro?',
      'È proprio sicuro?',
      "E' davvero sicura?",
      'Grazie, è davvero sicuro?',
      'Grazie. Ne è proprio sicuro?',
      'Ma ne è sicuro?',
      'No, non è quello che ho chiesto',
      'La risposta non è corretta',
      'Sono 30 giorni\nNe è sicuro?',
      'Sono 30 giorni, ne è sicuro?',
    ],
    questions: [
      "Cosa c'è di sbagliato nel mio ordine?",
      "Cosa faccio se l'indirizzo è sbagliato?",
      'È sbagliato restituire un regalo?',
      "Cosa succede se hai sbagliato l'indirizzo?",
      'Non è possibile il reso?',
      // "Is it safe?"
      'Il pagamento è sicuro?',
      'È sicuro pagare con carta?',
      'Il sito, è sicuro?',
      'È sicuro che il rimborso arrivi entro 30 giorni?',
      // Bare, it may ask that too.
      'È sicuro?',
      "E' sicura?",
      'Voglio pagare con carta. È sicuro?',
      // After a sentence naming something, "really safe" too.
      'Voglio pagare con carta. È davvero sicuro?',
      'Il sito dice 14 giorni. È proprio sicuro?',
    ],
  },
  Japanese: {
    pushbacks: [
      '違います。30日です。',
      'それは間違いです',
      '違うと思います',
      '本当ですか？',
      'いいえ、開封済みの商品について聞きました',
      'その回答は正しくありません。',
      'そうじゃない',
    ],
    questions: [
      '本当に、ありがとうございます',
      'エラー：違います',
      '画面に「間違い」と出ます',
      '住所が間違っていたらどうすればいいですか？',
      '違う住所に送れますか？',
      '間違いないですか？',
      '正しくない住所を修正するには？',
      '本当に返品できますか？',
      'いいですか？',
    ],
  },
};

describe.each(Object.entries(LANGUAGES))('contradictsAnswer in %s', (_, { pushbacks, questions }) => {
  it.each(pushbacks)('takes "%s" as pushing back', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(true);
  });

  it.each(questions)('takes "%s" as a question, not a pushback', (followUp) => {
    expect(contradictsAnswer(followUp)).toBe(false);
  });
});

describe('withoutPushback', () => {
  it.each([
    ["That's wrong. Does aspirin reduce fever?", 'Does aspirin reduce fever?'],
    ["No, that's not right. Is it 30 days?", 'Is it 30 days?'],
    ["That's not what I asked. Opened items?", 'Opened items?'],
    ['Are you sure?', ''],
    ['You are wrong about the fee', 'about the fee'],
    ['Actually, the deadline is April 30', 'the deadline is April 30'],
    ['不对，退款期限是30天', '退款期限是30天'],
    ["Actually, it's 30 days", "it's 30 days"],
    ['你确定吗？', ''],
    ['你说错了，是30天吗？', '是30天吗?'],
    ['Eso está mal. ¿Son 30 días?', '¿Son 30 días?'],
    ['¿Estás seguro de que son 30 días?', '¿son 30 días?'],
    ["C’est faux, c'est 30 jours", "c'est 30 jours"],
    ['Das stimmt nicht. Sind es 30 Tage?', 'Sind es 30 Tage?'],
    ['Não, isso está errado. São 30 dias?', 'São 30 dias?'],
    ['Ti sbagli. Sono 30 giorni?', 'Sono 30 giorni?'],
    ['違います。30日ですか？', '30日ですか?'],
    ['Vous êtes sûr ?', ''],
    ['En êtes-vous sûr ?', ''],
    ['Vous en êtes sûr ? Le site dit 14 jours', 'Le site dit 14 jours'],
    ['¿Está seguro de que son 30 días?', '¿son 30 días?'],
    ['Ne è sicuro? Il sito dice 14 giorni', 'Il sito dice 14 giorni'],
    ['Pero ¿está seguro de que son 30 días?', 'son 30 días?'],
    ['Mas tem certeza disso? O site diz 14 dias', 'O site diz 14 dias'],
    // What a phrase leaves (its punctuation, a connective opening it) goes with it.
    ['Is it 30 days? Are you sure?', 'Is it 30 days?'],
    ['Is it 14 days? That is wrong!', 'Is it 14 days?'],
    ['I think you are wrong about the fee', 'I think about the fee'],
    ['Ok, are you sure?', ''],
    ['Thanks, are you sure? Is it 30 days?', 'Is it 30 days?'],
    ['Hmm, that is wrong. Is it 14?', 'Is it 14?'],
    ['Gracias, ¿estás seguro? ¿Son 30 días?', '¿Son 30 días?'],
    ['Tem certeza que são 30 dias?', 'são 30 dias?'],
    ['São 30 dias, tem a certeza?', 'São 30 dias'],
    ['Son 30 días, ¿está seguro?', 'Son 30 días'],
    ['Son 30 días\nEstá seguro?', 'Son 30 días'],
    ['Son 30 días. ¿Está seguro?', 'Son 30 días.'],
    ['Son 30 días. ¡No es cierto!', 'Son 30 días.'],
    ['Son 30 días. ¿Está seguro? El sitio dice 14', 'Son 30 días. El sitio dice 14'],
    ['Eso está mal. Son 30 días\nPor qué?', 'Son 30 días\nPor qué?'],
    ['Is it 30 days?\u0000 Are you sure?', 'Is it 30 days?'],
  ])('reads "%s" as asking "%s"', (followUp, asks) => {
    expect(withoutPushback(followUp)).toBe(asks);
  });

  it.each([
    "What's wrong with my order?",
    'No refunds for opened items?',
    '  Can I get a refund after 30 days? ',
    'Actually, what about shipping?',
    '如果地址填错了怎么办？',
    '密码输错了会锁定吗？',
    '信息不对称是什么意思？',
    '不准确的地址怎么修改？',
    '¿Qué pasa si la dirección está mal?',
    'Was ist falsch an meiner Bestellung?',
    '住所が間違っていたらどうすればいいですか？',
  ])('leaves "%s", which does not push back, as it is', (question) => {
    expect(withoutPushback(question)).toBe(question);
  });
});
