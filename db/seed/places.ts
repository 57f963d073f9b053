// Real places with real coordinates, and the facilities freight moves between there.

export type TPlace = {
  city: string;
  state: string | null;
  country: string;
  lat: number;
  lng: number;
  sites: string[];
};

export const ETHIOPIA_CORRIDOR: TPlace[] = [
  { city: "Addis Ababa", state: "Addis Ababa", country: "Ethiopia", lat: 9.0054, lng: 38.7636, sites: ["Kality Customs Terminal", "Bole Lemi Industrial Park", "Akaki Kality Sub-City, Block 12", "Merkato Wholesale Area", "Gerji Warehouse District"] },
  { city: "Adama", state: "Oromia", country: "Ethiopia", lat: 8.54, lng: 39.27, sites: ["Adama Industrial Park", "Adama Grain Market", "Boku Shanan Warehouses"] },
  { city: "Modjo", state: "Oromia", country: "Ethiopia", lat: 8.587, lng: 39.121, sites: ["Modjo Dry Port", "Modjo Tannery Cluster"] },
  { city: "Dire Dawa", state: "Dire Dawa", country: "Ethiopia", lat: 9.6009, lng: 41.8501, sites: ["Dire Dawa Industrial Park", "Dire Dawa Dry Port", "Sabian Market Depot"] },
  { city: "Djibouti", state: null, country: "Djibouti", lat: 11.5886, lng: 43.1451, sites: ["Doraleh Multipurpose Port", "Port of Djibouti, Gate 3", "Doraleh Container Terminal"] },
  { city: "Hawassa", state: "Sidama", country: "Ethiopia", lat: 7.0621, lng: 38.4764, sites: ["Hawassa Industrial Park", "Hawassa Coffee Warehouse"] },
  { city: "Bahir Dar", state: "Amhara", country: "Ethiopia", lat: 11.5742, lng: 37.3614, sites: ["Bahir Dar Textile Factory", "Bahir Dar Grain Depot"] },
  { city: "Mekelle", state: "Tigray", country: "Ethiopia", lat: 13.4967, lng: 39.4753, sites: ["Mekelle Industrial Park", "Messebo Cement Factory"] },
  { city: "Gondar", state: "Amhara", country: "Ethiopia", lat: 12.603, lng: 37.4521, sites: ["Gondar Malt Factory", "Azezo Warehouse Area"] },
  { city: "Jimma", state: "Oromia", country: "Ethiopia", lat: 7.6739, lng: 36.8344, sites: ["Jimma Coffee Collection Centre", "Jimma Industrial Zone"] },
  { city: "Kombolcha", state: "Amhara", country: "Ethiopia", lat: 11.0849, lng: 39.7292, sites: ["Kombolcha Industrial Park", "Kombolcha Dry Port"] },
  { city: "Bishoftu", state: "Oromia", country: "Ethiopia", lat: 8.7525, lng: 38.9786, sites: ["Bishoftu Poultry Farms", "Bishoftu Flower Farms"] },
  { city: "Debre Birhan", state: "Amhara", country: "Ethiopia", lat: 9.68, lng: 39.53, sites: ["Debre Birhan Industrial Park", "Dashen Brewery Depot"] },
  { city: "Shashemene", state: "Oromia", country: "Ethiopia", lat: 7.2, lng: 38.6, sites: ["Shashemene Fruit Market", "Shashemene Bus Terminal Depot"] },
  { city: "Harar", state: "Harari", country: "Ethiopia", lat: 9.3126, lng: 42.1227, sites: ["Harar Brewery", "Harar Coffee Exporters' Yard"] },
  { city: "Nekemte", state: "Oromia", country: "Ethiopia", lat: 9.0893, lng: 36.5554, sites: ["Nekemte Grain Store", "Nekemte Coffee Yard"] },
  { city: "Semera", state: "Afar", country: "Ethiopia", lat: 11.7922, lng: 41.0086, sites: ["Semera Logistics Hub"] },
];

export const US_LANES: TPlace[] = [
  { city: "Chicago", state: "IL", country: "USA", lat: 41.8781, lng: -87.6298, sites: ["4800 S Central Ave", "2600 W 35th St", "1400 S Jefferson St"] },
  { city: "Dallas", state: "TX", country: "USA", lat: 32.7767, lng: -96.797, sites: ["3900 Singleton Blvd", "1200 Mockingbird Ln"] },
  { city: "Atlanta", state: "GA", country: "USA", lat: 33.749, lng: -84.388, sites: ["1700 Fulton Industrial Blvd", "4500 Westgate Dr"] },
  { city: "Los Angeles", state: "CA", country: "USA", lat: 34.0522, lng: -118.2437, sites: ["2100 E 7th St", "Port of Los Angeles, Terminal Island"] },
  { city: "Houston", state: "TX", country: "USA", lat: 29.7604, lng: -95.3698, sites: ["8800 Market St", "Barbours Cut Container Terminal"] },
  { city: "Memphis", state: "TN", country: "USA", lat: 35.1495, lng: -90.049, sites: ["3300 Democrat Rd", "4000 Airways Blvd"] },
  { city: "Denver", state: "CO", country: "USA", lat: 39.7392, lng: -104.9903, sites: ["5500 Brighton Blvd", "4800 Dahlia St"] },
  { city: "Newark", state: "NJ", country: "USA", lat: 40.7357, lng: -74.1724, sites: ["Port Newark, 1100 Corbin St", "400 Doremus Ave"] },
  { city: "Columbus", state: "OH", country: "USA", lat: 39.9612, lng: -82.9988, sites: ["2500 Rickenbacker Pkwy", "1900 Alum Creek Dr"] },
  { city: "Indianapolis", state: "IN", country: "USA", lat: 39.7684, lng: -86.1581, sites: ["6200 W Washington St", "2900 S Harding St"] },
  { city: "Kansas City", state: "MO", country: "USA", lat: 39.0997, lng: -94.5786, sites: ["1600 Guinotte Ave", "8100 NE Underground Dr"] },
  { city: "Phoenix", state: "AZ", country: "USA", lat: 33.4484, lng: -112.074, sites: ["4100 W Buckeye Rd", "2800 S 36th St"] },
  { city: "Seattle", state: "WA", country: "USA", lat: 47.6062, lng: -122.3321, sites: ["Terminal 18, Harbor Island", "6100 4th Ave S"] },
  { city: "Laredo", state: "TX", country: "USA", lat: 27.5306, lng: -99.4803, sites: ["World Trade Bridge Yard", "5800 Bob Bullock Loop"] },
  { city: "Savannah", state: "GA", country: "USA", lat: 32.0809, lng: -81.0912, sites: ["Garden City Terminal", "100 Brampton Rd"] },
  { city: "Nashville", state: "TN", country: "USA", lat: 36.1627, lng: -86.7816, sites: ["700 Cowan St", "1400 Antioch Pike"] },
];

export const EUROPE_LANES: TPlace[] = [
  { city: "Rotterdam", state: "South Holland", country: "Netherlands", lat: 51.9244, lng: 4.4777, sites: ["Maasvlakte II, ECT Delta Terminal", "Waalhaven Oostzijde 1"] },
  { city: "Hamburg", state: "Hamburg", country: "Germany", lat: 53.5511, lng: 9.9937, sites: ["Container Terminal Altenwerder", "Billbrookdeich 120"] },
  { city: "Antwerp", state: "Antwerp", country: "Belgium", lat: 51.2194, lng: 4.4025, sites: ["Deurganckdok Terminal", "Noorderlaan 147"] },
  { city: "Duisburg", state: "North Rhine-Westphalia", country: "Germany", lat: 51.4344, lng: 6.7623, sites: ["duisport logport I", "Hafen Ruhrort"] },
  { city: "Lyon", state: "Auvergne-Rhône-Alpes", country: "France", lat: 45.764, lng: 4.8357, sites: ["Port Edouard Herriot", "Rue de Gerland 250"] },
  { city: "Milan", state: "Lombardy", country: "Italy", lat: 45.4642, lng: 9.19, sites: ["Interporto Milano Segrate", "Via Toffetti 104"] },
  { city: "Madrid", state: "Madrid", country: "Spain", lat: 40.4168, lng: -3.7038, sites: ["Puerto Seco de Coslada", "Calle de la Mercancía 3"] },
  { city: "Warsaw", state: "Masovian", country: "Poland", lat: 52.2297, lng: 21.0122, sites: ["ul. Annopol 3", "Terminal Pruszków"] },
  { city: "Munich", state: "Bavaria", country: "Germany", lat: 48.1351, lng: 11.582, sites: ["Containerterminal München-Riem", "Landsberger Str. 480"] },
  { city: "Paris", state: "Île-de-France", country: "France", lat: 48.8566, lng: 2.3522, sites: ["Rungis Market, Bâtiment C1", "Port de Gennevilliers"] },
  { city: "Barcelona", state: "Catalonia", country: "Spain", lat: 41.3874, lng: 2.1686, sites: ["BEST Terminal, Moll Prat", "Zona Franca, Carrer 60"] },
  { city: "Vienna", state: "Vienna", country: "Austria", lat: 48.2082, lng: 16.3738, sites: ["Hafen Wien Freudenau", "Laxenburger Str. 200"] },
  { city: "Prague", state: "Prague", country: "Czechia", lat: 50.0755, lng: 14.4378, sites: ["Terminal Uhříněves", "Průmyslová 11"] },
  { city: "Poznań", state: "Greater Poland", country: "Poland", lat: 52.4064, lng: 16.9252, sites: ["Terminal Gądki", "ul. Gdyńska 31"] },
];

export const CARGO = {
  ethiopia: [
    { title: "Green coffee beans, 320 bags", equipment: "dry_van", lbs: [38000, 42000] },
    { title: "Cement, 40 tonnes bagged", equipment: "flatbed", lbs: [40000, 44000] },
    { title: "Urea fertilizer, 50 kg bags", equipment: "dry_van", lbs: [36000, 44000] },
    { title: "Sesame seeds for export", equipment: "container", lbs: [30000, 42000] },
    { title: "Cut roses, cold chain", equipment: "refrigerated", lbs: [9000, 16000] },
    { title: "Steel rebar bundles", equipment: "flatbed", lbs: [34000, 44000] },
    { title: "Teff and wheat flour", equipment: "dry_van", lbs: [26000, 40000] },
    { title: "Garments from the industrial park", equipment: "container", lbs: [12000, 22000] },
    { title: "20 ft container, import goods", equipment: "container", lbs: [24000, 40000] },
    { title: "Diesel fuel, 30,000 litres", equipment: "tanker", lbs: [38000, 44000] },
    { title: "Excavator transfer", equipment: "lowboy", lbs: [40000, 44000] },
    { title: "Malt barley", equipment: "dry_van", lbs: [30000, 42000] },
    { title: "Leather hides for tanning", equipment: "dry_van", lbs: [18000, 30000] },
    { title: "Solar panels and inverters", equipment: "step_deck", lbs: [14000, 26000] },
  ],
  international: [
    { title: "Frozen poultry", equipment: "refrigerated", lbs: [36000, 43000] },
    { title: "Auto parts on pallets", equipment: "dry_van", lbs: [18000, 40000] },
    { title: "Building materials", equipment: "flatbed", lbs: [30000, 46000] },
    { title: "Paper products, 26 pallets", equipment: "dry_van", lbs: [28000, 40000] },
    { title: "Bottled beverages", equipment: "dry_van", lbs: [40000, 44000] },
    { title: "Fresh produce", equipment: "refrigerated", lbs: [30000, 42000] },
    { title: "Steel coils", equipment: "flatbed", lbs: [40000, 46000] },
    { title: "Industrial machinery", equipment: "step_deck", lbs: [20000, 38000] },
    { title: "40 ft container from port", equipment: "container", lbs: [26000, 44000] },
    { title: "Food-grade liquid", equipment: "tanker", lbs: [40000, 45000] },
    { title: "Wind turbine section", equipment: "lowboy", lbs: [38000, 46000] },
    { title: "Pharmaceuticals, temperature controlled", equipment: "refrigerated", lbs: [8000, 18000] },
  ],
} as const;
