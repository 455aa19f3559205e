// libgeonames: an offline table of ~24,000 cities (name, region, country, position, population)
// with a search that already folds accents in the names it compares against.
#include <geonames.h>
