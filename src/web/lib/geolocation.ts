export type TPoint = { latitude: number; longitude: number };

/** The device's position, or an error when it is unavailable or refused. */
export const currentPosition = () =>
  new Promise<TPoint>((resolve, reject) => {
    if (!("geolocation" in navigator)) {
      reject(new Error("Geolocation is not supported"));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      (err) => reject(new Error(err.message)),
      { enableHighAccuracy: false, timeout: 15_000, maximumAge: 60_000 },
    );
  });
