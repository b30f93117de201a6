import { matchServerMessage } from './server';
import en from './server/en.json';
import hi from './server/hi.json';

// The shipped server catalogue on real service sentences: exact ones, patterns with the service's
// own values, class-validator's defaults, and English left exactly as the service wrote it.
describe('server catalogue', () => {
  it.each([
    ['Invalid email or password.', 'ईमेल या पासवर्ड गलत है।'],
    ['upiId must look like name@bank.', 'UPI आईडी name@bank जैसी होनी चाहिए।'],
    ['Product 12 not found.', 'प्रोडक्ट 12 नहीं मिला।'],
    ['Only 2.000 pcs of Soap (7) in stock; selling 3.000 takes the stock below zero.', 'Soap (7) का स्टॉक में सिर्फ़ 2.000 pcs है; 3.000 बेचने से स्टॉक शून्य से नीचे जाएगा।'],
    ['name must be a string', 'name टेक्स्ट होना चाहिए'],
    ['property foo should not exist', 'फ़ील्ड foo नहीं भेजी जानी चाहिए'],
    ['Unable to process the request please contact support.', 'अनुरोध पूरा नहीं हो सका, कृपया सपोर्ट से संपर्क करें।'],
    // The import wizard's column labels and match rules (inventory's products, ledger's parties).
    ['Cost price', 'लागत मूल्य'],
    ['Product name', 'प्रोडक्ट का नाम'],
    ['PIN code', 'पिन कोड'],
    ['barcode: a row whose barcode a product already has updates that product; rows without a barcode are added as new products.', 'बारकोड: जिस पंक्ति का बारकोड किसी प्रोडक्ट पर पहले से है, वह उस प्रोडक्ट को अपडेट करती है; बिना बारकोड की पंक्तियाँ नए प्रोडक्ट के रूप में जुड़ती हैं।'],
  ])('%s', (message, hindi) => {
    expect(matchServerMessage(hi, message)).toBe(hindi);
    // The English catalogue gives back the service's own words.
    expect(matchServerMessage(en, message)).toBe(message);
  });

  it('a sentence it does not know is left alone', () => {
    expect(matchServerMessage(hi, 'Something nobody wrote yet')).toBeUndefined();
  });
});
