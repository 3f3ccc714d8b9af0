/**
 * A corpus of everyday spoken English for the app's domain (travel, transport, weather, hotels and
 * restaurants, appointments, shopping, numbers, prices, times, dates, names), written for this app: phrases
 * and templates whose slots are filled from word lists. It feeds the domain language model
 * (everyday-language-model.ts), which is mixed with PocketSphinx's general English model.
 *
 * Rules it keeps: spoken forms only (numbers, times and dates in words), American spelling (the model's
 * dictionary), every word in the dictionary (checked by the model's builder), and none of the recognition
 * evaluation's sentences (`src/cli/eval/eval-sentences.ts`; test/language-model.test.ts checks it). It was
 * written as a general phrase book of the domain, not from the evaluation sentences.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const TEENS = [
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINAL_ONES = ['', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const ORDINAL_TEENS = [
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
];

/** 0-999 as spoken ("one hundred and five" is said both ways; both appear). */
export function numberWords(value: number, withAnd = false): string {
  if (value < 10) return ONES[value];
  if (value < 20) return TEENS[value - 10];
  if (value < 100) return value % 10 === 0 ? TENS[value / 10] : `${TENS[Math.floor(value / 10)]} ${ONES[value % 10]}`;
  const rest = value % 100;
  const hundreds = `${ONES[Math.floor(value / 100)]} hundred`;
  return rest === 0 ? hundreds : `${hundreds}${withAnd ? ' and' : ''} ${numberWords(rest)}`;
}

/** 1-31 as an ordinal ("twenty first"). */
export function ordinalWords(value: number): string {
  if (value < 10) return ORDINAL_ONES[value];
  if (value < 20) return ORDINAL_TEENS[value - 10];
  if (value % 10 === 0) return `${TENS[value / 10].slice(0, -1)}ieth`;
  return `${TENS[Math.floor(value / 10)]} ${ORDINAL_ONES[value % 10]}`;
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const PARTS_OF_DAY = [
  'in the morning',
  'in the afternoon',
  'in the evening',
  'at night',
  'tonight',
  'this morning',
  'this afternoon',
  'this evening',
];
const RELATIVE_DAYS = [
  'today',
  'tomorrow',
  'yesterday',
  'the day after tomorrow',
  'next week',
  'this weekend',
  'next weekend',
  'next month',
  'last week',
  'tomorrow morning',
  'tomorrow evening',
  'tomorrow night',
  'tomorrow afternoon',
];
const FIRST_NAMES = [
  'james',
  'john',
  'robert',
  'michael',
  'william',
  'david',
  'richard',
  'joseph',
  'thomas',
  'charles',
  'daniel',
  'matthew',
  'anthony',
  'mark',
  'paul',
  'steven',
  'andrew',
  'kevin',
  'brian',
  'george',
  'edward',
  'peter',
  'jack',
  'henry',
  'sam',
  'tom',
  'ben',
  'alex',
  'chris',
  'mike',
  'mary',
  'patricia',
  'jennifer',
  'linda',
  'elizabeth',
  'susan',
  'jessica',
  'sarah',
  'karen',
  'lisa',
  'nancy',
  'betty',
  'sandra',
  'ashley',
  'emily',
  'anna',
  'laura',
  'rachel',
  'kate',
  'julia',
  'maria',
  'helen',
  'alice',
  'lucy',
  'sophie',
  'emma',
  'olivia',
  'grace',
  'claire',
  'jane',
];
const SURNAMES = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'miller',
  'davis',
  'wilson',
  'taylor',
  'thomas',
  'moore',
  'martin',
  'jackson',
  'white',
  'harris',
  'clark',
  'lewis',
  'robinson',
  'walker',
  'young',
  'allen',
  'king',
  'wright',
  'scott',
  'green',
  'baker',
  'adams',
  'nelson',
  'hill',
  'campbell',
  'mitchell',
  'roberts',
  'carter',
  'phillips',
  'evans',
  'turner',
  'parker',
  'collins',
  'edwards',
  'stewart',
  'morris',
  'murphy',
  'cook',
  'rogers',
  'morgan',
  'cooper',
  'peterson',
  'reed',
  'bailey',
  'bell',
  'kelly',
  'howard',
  'ward',
  'cox',
  'richardson',
  'wood',
  'watson',
  'brooks',
  'bennett',
  'gray',
  'hughes',
  'price',
  'sanders',
  'myers',
  'long',
  'ross',
  'foster',
  'anderson',
  'thompson',
  'garcia',
  'martinez',
];
const CITIES = [
  'new york',
  'boston',
  'chicago',
  'washington',
  'los angeles',
  'san francisco',
  'seattle',
  'miami',
  'denver',
  'dallas',
  'houston',
  'atlanta',
  'philadelphia',
  'detroit',
  'toronto',
  'montreal',
  'london',
  'paris',
  'berlin',
  'madrid',
  'rome',
  'barcelona',
  'amsterdam',
  'dublin',
  'vienna',
  'lisbon',
  'prague',
  'edinburgh',
  'manchester',
  'oxford',
  'sydney',
  'tokyo',
  'mexico city',
  'vancouver',
  'phoenix',
  'portland',
  'las vegas',
];
const PLACES = [
  'train station',
  'bus station',
  'bus stop',
  'airport',
  'hotel',
  'museum',
  'hospital',
  'pharmacy',
  'bank',
  'post office',
  'police station',
  'supermarket',
  'market',
  'restaurant',
  'cafe',
  'beach',
  'park',
  'city center',
  'old town',
  'cathedral',
  'church',
  'castle',
  'harbor',
  'subway station',
  'taxi stand',
  'car park',
  'parking lot',
  'gas station',
  'shopping center',
  'mall',
  'library',
  'university',
  'theater',
  'cinema',
  'stadium',
  'zoo',
  'bridge',
  'main square',
  'town hall',
  'tourist office',
  'information desk',
  'ticket office',
  'exit',
  'entrance',
  'restroom',
  'elevator',
  'gate',
  'platform',
  'embassy',
  'doctor',
  'dentist',
  'clinic',
  'bakery',
  'bookshop',
  'gallery',
  'river',
  'lake',
];
const TRANSPORT = [
  'train',
  'bus',
  'plane',
  'flight',
  'ferry',
  'boat',
  'taxi',
  'subway',
  'tram',
  'coach',
  'shuttle',
  'car',
];
const FOODS = [
  'coffee',
  'tea',
  'water',
  'orange juice',
  'a glass of wine',
  'a beer',
  'soup',
  'salad',
  'chicken',
  'fish',
  'steak',
  'pasta',
  'rice',
  'bread',
  'cheese',
  'eggs',
  'a sandwich',
  'pizza',
  'ice cream',
  'cake',
  'fruit',
  'vegetables',
  'potatoes',
  'breakfast',
  'lunch',
  'dinner',
  'dessert',
];
const ROOMS = [
  'a single room',
  'a double room',
  'a twin room',
  'a family room',
  'a suite',
  'a room',
  'two rooms',
  'a quiet room',
  'a room with a view',
  'a room with two beds',
  'a non smoking room',
];
const WEATHER_STATES = [
  'sunny',
  'cloudy',
  'rainy',
  'windy',
  'foggy',
  'cold',
  'warm',
  'hot',
  'cool',
  'dry',
  'wet',
  'humid',
  'clear',
  'stormy',
  'mild',
  'freezing',
  'sunny and warm',
  'cold and windy',
  'cloudy and cool',
  'hot and dry',
  'wet and windy',
  'warm and humid',
  'cold and wet',
  'clear and cold',
];
const WEATHER_EVENTS = [
  'rain',
  'snow',
  'showers',
  'light rain',
  'heavy rain',
  'thunderstorms',
  'a storm',
  'strong winds',
  'fog',
  'frost',
  'sunshine',
  'clouds',
  'a few showers',
  'some sun',
  'hail',
  'ice on the roads',
];
const ITEMS = [
  'ticket',
  'tickets',
  'room',
  'table',
  'car',
  'seat',
  'seats',
  'map',
  'receipt',
  'key',
  'bag',
  'bags',
  'suitcase',
  'passport',
  'phone',
  'wallet',
  'umbrella',
  'jacket',
  'charger',
  'card',
];
const PEOPLE = ['people', 'adults', 'children', 'guests', 'persons'];

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length];

/** A clock time as spoken: "seven", "seven o'clock", "half past seven", "seven thirty", "a quarter to eight"... */
function clockTimes(): string[] {
  const times: string[] = ['noon', 'midnight'];
  for (let hour = 1; hour <= 12; hour += 1) {
    const spoken = numberWords(hour);
    const next = numberWords((hour % 12) + 1);
    times.push(spoken, `${spoken} o'clock`, `half past ${spoken}`, `a quarter past ${spoken}`, `a quarter to ${next}`);
    for (const minutes of [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]) {
      times.push(`${spoken} ${minutes < 10 ? `oh ${numberWords(minutes)}` : numberWords(minutes)}`);
    }
    times.push(
      `ten past ${spoken}`,
      `twenty past ${spoken}`,
      `ten to ${next}`,
      `twenty to ${next}`,
      `five past ${spoken}`,
    );
  }
  return times;
}

function dates(): string[] {
  const spoken: string[] = [];
  for (let month = 0; month < MONTHS.length; month += 1) {
    for (let day = 1; day <= 31; day += 1) {
      spoken.push(`the ${ordinalWords(day)} of ${MONTHS[month]}`);
      if (day % 3 === month % 3) spoken.push(`${MONTHS[month]} ${ordinalWords(day)}`);
    }
  }
  return spoken;
}

/** Hand-written phrases, one per line. */
const PHRASES = `
hello how are you
good morning
good afternoon
good evening
thank you very much
thanks a lot
you are welcome
excuse me
i am sorry
sorry i did not understand
could you repeat that please
can you say that again
please speak more slowly
do you speak english
i do not speak spanish
what does this word mean
can you write it down for me
how do you say that in english
yes please
no thank you
that sounds good
that is fine
no problem
of course
just a moment please
wait a minute
see you later
see you tomorrow
have a nice day
have a good trip
enjoy your meal
nice to meet you
my name is
what is your name
where are you from
i am from
we are on holiday
i am here on business
this is my first time here
i am looking for my hotel
i am lost
can you help me
could you help me please
can you show me on the map
is it far from here
is it close to here
is it within walking distance
how far is it
how long does it take
how long will it take by car
how do i get there
how do i get to the center
which way is it
go straight ahead
turn left at the corner
turn right at the traffic lights
take the second street on the left
it is on your right
it is on the left side of the street
it is next to the bank
it is opposite the church
it is just around the corner
it is across the street
cross the bridge and keep going
follow the signs
walk for about five minutes
it takes about ten minutes on foot
you can take the bus
you should take a taxi
where can i buy a ticket
where can i get a taxi
where is the ticket office
how much is a ticket
how much does it cost
how much is it
how much do i owe you
is there a discount for students
i would like a return ticket
i would like a one way ticket
two tickets please
a ticket for the next train please
when is the next train
when does the last bus leave
when does the first train leave in the morning
what time does the train arrive
what time does the flight land
what time do we board
which platform does it leave from
which gate is it
does this bus go to the airport
does this train stop at
is this seat taken
is this the right train
do i need to change trains
where do i change
how many stops is it
get off at the next stop
the train is late
the train is delayed
the flight has been canceled
my flight was delayed
we missed our connection
the bus was full
i missed the last bus
i need to catch a train
i have to be at the airport by seven
can you call me a taxi
please take me to this address
please stop here
keep the change
can i rent a car
i would like to rent a car for a week
where can i park
is there parking at the hotel
the car broke down
i have a flat tire
where is the nearest gas station
i would like to book a room
i would like to make a reservation
i have a reservation
i booked a room online
the reservation is under my name
can i see the room first
is breakfast included
what time is breakfast
what time is check out
what time can we check in
can i leave my bags here
can i have a late check out
the room is too noisy
the air conditioning does not work
there is no hot water
can i have another towel
can i have the key please
i lost my room key
the wifi is not working
what is the wifi password
can we have an extra bed
we would like to stay one more night
i would like to cancel my booking
i want to change my reservation
can i change the date
can i move it to next week
are there any rooms left
do you have anything cheaper
is there a room with a balcony
how much is it per night
does the price include taxes
we will arrive late tonight
we are leaving early tomorrow
a table for two please
do you have a table for four
i would like to book a table
we have a table booked for eight o'clock
can we sit outside
can we sit by the window
can i see the menu please
what do you recommend
what is the special today
i will have the fish
i would like the chicken please
is it spicy
i am a vegetarian
i do not eat meat
i cannot eat seafood
i am allergic to milk
does it contain eggs
no ice please
can i have some water
another coffee please
the food is very good
this is not what i ordered
could we have the check please
can we pay separately
can i pay by card
do you take credit cards
can i pay in cash
i would like a receipt
is service included
where is the restroom
what time do you open
what time do you close
are you open on sunday
the shop is closed today
how much are these
do you have this in another size
do you have a smaller one
i am just looking
i will take it
can you wrap it please
it is too expensive
can you give me a discount
where can i change money
where is the nearest cash machine
what is the exchange rate
my card does not work
i need a doctor
please call an ambulance
call the police
i need help
i feel sick
i have a headache
i have a fever
my stomach hurts
i hurt my leg
where is the nearest hospital
is there a pharmacy near here
i need something for a cold
i have an appointment with the doctor
can i make an appointment for tomorrow
the doctor will see you now
please wait in the waiting room
i lost my passport
someone stole my bag
i left my phone in the taxi
where is the lost and found
what is the weather like today
what is the weather going to be like tomorrow
what is the forecast for the weekend
is it going to rain today
do i need an umbrella
it is raining
it is snowing
it is very cold today
it is really hot outside
it is a beautiful day
the sun is shining
it is getting dark
it looks like rain
the sky is clear
the weather is terrible
the weather will improve later
it will clear up in the afternoon
there will be sunny spells
the wind is picking up
the roads are icy
the temperature is below zero
it is twenty degrees outside
it will be around fifteen degrees
temperatures will reach thirty degrees
the night will be cold with frost
there is a storm warning for the coast
the snow will stop by the evening
it rained all night
it was sunny all week
we had a lot of snow last winter
spring is the best time to visit
summer is very hot here
autumn is wet and windy
what time is it
it is almost noon
it is late
we are early
we are running late
i will be there in ten minutes
i will call you back later
please call me tomorrow
can you send me an email
my phone number is
my email address is
let me give you my number
can you spell your name please
how do you spell that
my last name is
my first name is
this is my wife
this is my husband
these are my children
my friend is waiting outside
my brother lives in
my parents are coming to visit
we are meeting friends for dinner
we are going to the museum
we would like to see the old town
is there a guided tour
what time does the tour start
how long is the tour
are there tickets left for tonight
where can we buy tickets for the concert
the show starts at eight
the game starts at seven
can you take a picture of us
what is there to see here
what can we do here in the evening
is it safe to walk at night
where is a good place to eat
is there a good restaurant near here
can you recommend a hotel
is the museum open today
the museum is closed on monday
how much is the entrance fee
children under twelve go free
the beach is not far from the hotel
we would like to go swimming
let us meet in front of the hotel
let us meet at the station
i will wait for you at the entrance
see you at the airport
the meeting has been moved to friday
the meeting starts at nine
i will be in the office on tuesday
please send the documents by friday
the package will arrive on monday
the delivery is late
i would like to send this letter
how much is a stamp
i need to print something
where can i buy a phone card
my battery is dead
can i charge my phone here
`;

/** Templates: `{slot}` is filled from SLOTS, cycling through each list as sentences are generated. */
const TEMPLATES = [
  'where is the {place}',
  'where is the nearest {place}',
  'how do i get to the {place}',
  'how far is the {place}',
  'is the {place} far from here',
  'is there a {place} near here',
  'how long does it take to get to the {place}',
  'can you tell me the way to the {place}',
  'the {place} is on the left',
  'the {place} is about {number} minutes from here',
  'the {place} is closed on {day}',
  'the {place} opens at {time}',
  'the {place} closes at {time}',
  'what time does the {place} open',
  'what time does the {place} close',
  'we are going to the {place} {relative}',
  'please take me to the {place}',
  'i am waiting at the {place}',
  'meet me at the {place} at {time}',
  'the {transport} to {city} leaves at {time}',
  'the {transport} to {city} leaves from platform {number}',
  'the next {transport} to {city} leaves in {number} minutes',
  'the {transport} from {city} arrives at {time}',
  'when does the next {transport} to {city} leave',
  'is there a {transport} to {city} {relative}',
  'how much is a ticket to {city}',
  'i would like {count} tickets to {city}',
  'i would like a ticket to {city} for {date}',
  'my {transport} leaves at {time} {part}',
  'my {transport} was delayed by {number} minutes',
  'the {transport} is {number} minutes late',
  'our {transport} lands at {time} {part}',
  'we are flying to {city} on {day}',
  'we are taking the {transport} to {city} {relative}',
  'i am going to {city} {relative}',
  'i live in {city}',
  'my sister lives in {city}',
  'we are from {city}',
  'flight {number} to {city} is now boarding at gate {number}',
  'the weather in {city} will be {weather} {relative}',
  'it will be {weather} {relative}',
  'it is {weather} today',
  'it was {weather} {relative}',
  'tomorrow will be {weather}',
  'expect {weatherEvent} {part}',
  'there will be {weatherEvent} {relative}',
  'there will be {weatherEvent} {part}',
  'there is a chance of {weatherEvent} {relative}',
  'the forecast says {weatherEvent} on {day}',
  'we expect {weatherEvent} on {day} and {weatherEvent} on {day}',
  'the temperature will be {number} degrees {relative}',
  'it will be {number} degrees {part}',
  'the high will be {number} and the low {number}',
  'i would like to book {room} for {count} nights',
  'i would like {room} from {date} to {date}',
  'do you have {room} for {relative}',
  'we need {room} for {count} {people}',
  'i have a reservation for {room} under the name {surname}',
  'the booking is under the name {surname}',
  'my reservation number is {digits}',
  'i would like to change my booking to {day}',
  'can i move my reservation to {date}',
  'i would like to cancel my reservation for {date}',
  'we will arrive on {date} and leave on {date}',
  'we are staying for {count} nights',
  'a table for {count} please',
  'i would like to book a table for {count} {people} at {time}',
  'we would like a table for {count} on {day} evening',
  'can we have a table for {count} at {time}',
  'i will have {food} please',
  'i would like {food} and {food}',
  'can i have {food} please',
  'we would like {food} for the children',
  'the total is {number} dollars',
  'that comes to {number} dollars and {number} cents',
  'it costs {number} dollars',
  'the room is {number} dollars a night',
  'the tickets are {number} dollars each',
  'i paid {number} dollars for it',
  'the bill is {number} euros',
  'my phone number is {digits}',
  'call me on {digits}',
  'the code is {digits}',
  'my room number is {number}',
  'we are in room {number}',
  'the address is {number} {surname} street',
  'i live at {number} {surname} road',
  'my appointment is on {date} at {time}',
  'my appointment is on {day} at {time}',
  'the appointment is at {time} {part}',
  'the meeting is on {date}',
  'the meeting is at {time} on {day}',
  'i will see you on {day} at {time}',
  'i will be back on {date}',
  'the party is on {date}',
  'my birthday is on {date}',
  'the concert is on {day} at {time}',
  'the office is closed on {date}',
  'the shop is open from {time} to {time}',
  'we open at {time} and close at {time}',
  'breakfast is served from {time} to {time}',
  'check out is at {time}',
  'see you at {time}',
  'it is {time}',
  'it is {time} {part}',
  'the train leaves at {time} {part}',
  'please be here by {time}',
  'my name is {first} {surname}',
  'my name is {first}',
  'this is {first} {surname}',
  'hello this is {first} speaking',
  'i am {first} and this is {first}',
  '{first} and {first} are coming with us',
  '{first} will meet us at the {place}',
  '{first} is waiting at the {place}',
  '{first} booked a table for {count}',
  '{first} lives in {city}',
  'please ask for {first} {surname}',
  'i have an appointment with doctor {surname}',
  'could you call {first} for me',
  '{first} called {relative}',
  'i lost my {item}',
  'i left my {item} at the {place}',
  'have you seen my {item}',
  'can i have my {item} back',
  'where can i get a {item}',
  'i need {count} {item}',
  'we need {count} seats on the {transport}',
  'we are {count} {people}',
  'there are {count} of us',
  'we have {count} children',
  'i will stay for {count} days',
  'it takes about {number} minutes',
  'it takes {count} hours by {transport}',
  'the trip takes {count} hours',
  'we waited for {number} minutes',
  'the {transport} comes every {number} minutes',
  'i will be there in {number} minutes',
  'the museum is open every day except {day}',
  'we will leave on {day} {part}',
  'we arrived {relative}',
  'i will call you {relative}',
  'see you on {day}',
  'see you {relative}',
  'it is on {date}',
  'on {date}',
  'on {day} {part}',
  'from {day} to {day}',
  'for {count} nights from {date}',
  'at {time} {part}',
  'at {time} on {date}',
];

export interface CorpusOptions {
  /** How many sentences each template yields (slots cycle through their lists). Default 40. */
  readonly perTemplate?: number;
}

/** The corpus as lower-case word lists (no punctuation; apostrophes kept: "o'clock"). */
export function everydayCorpus(options: CorpusOptions = {}): string[][] {
  const perTemplate = options.perTemplate ?? 40;
  const times = clockTimes();
  const spokenDates = dates();
  const numbers = Array.from({ length: 120 }, (_, index) => numberWords(index));
  for (const big of [150, 200, 250, 300, 400, 500, 750, 1000])
    numbers.push(big === 1000 ? 'one thousand' : numberWords(big));
  numbers.push('one hundred and twenty', 'two hundred and fifty', 'a hundred', 'a thousand');
  const counts = [
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'twelve',
    'one',
    'a couple of',
  ];
  const slots: Record<string, readonly string[]> = {
    place: PLACES,
    city: CITIES,
    transport: TRANSPORT,
    time: times,
    date: spokenDates,
    day: DAYS,
    part: PARTS_OF_DAY,
    relative: RELATIVE_DAYS,
    number: numbers,
    count: counts,
    weather: WEATHER_STATES,
    weatherEvent: WEATHER_EVENTS,
    room: ROOMS,
    people: PEOPLE,
    food: FOODS,
    first: FIRST_NAMES,
    surname: SURNAMES,
    item: ITEMS,
    digits: Array.from({ length: 60 }, (_, index) => digitString(index)),
  };
  const sentences: string[][] = [];
  const split = (text: string) => text.trim().split(/\s+/).filter(Boolean);
  for (const line of PHRASES.split('\n')) if (line.trim()) sentences.push(split(line));
  // Each slot kind cycles with its own counter (co-prime strides spread the combinations).
  const cursors = new Map<string, number>();
  TEMPLATES.forEach((template, templateIndex) => {
    for (let round = 0; round < perTemplate; round += 1) {
      const text = template.replace(/\{(\w+)\}/g, (_, slot: string) => {
        const list = slots[slot];
        if (!list) throw new Error(`unknown slot {${slot}} in "${template}"`);
        const at = (cursors.get(slot) ?? templateIndex * 7) + 1;
        cursors.set(slot, at);
        return pick(list, at * 37 + round);
      });
      sentences.push(split(text));
    }
  });
  // Every slot value also alone and in a short frame, so each is seen at least once.
  for (const [slot, list] of Object.entries(slots)) {
    for (const value of list) sentences.push(split(slot === 'date' || slot === 'time' ? `on ${value}` : value));
  }
  return sentences;
}

/** A phone-number-like string of spoken digits, in groups ("five five five two three one ..."). */
function digitString(seed: number): string {
  let state = seed * 2654435761 + 12345;
  const digits: string[] = [];
  const length = seed % 3 === 0 ? 7 : seed % 3 === 1 ? 10 : 4;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const digit = Math.floor(state / 65536) % 10;
    digits.push(digit === 0 && index % 2 === 1 ? 'oh' : ONES[digit]);
  }
  return digits.join(' ');
}
