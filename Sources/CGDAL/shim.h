// GDAL/OGR: vector formats (GPX, KML, GeoJSON) written by their drivers, with the escaping,
// coordinate order and structure each format asks for, into in-memory files (/vsimem/).
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <cpl_vsi.h>
#include <cpl_error.h>
#include <cpl_string.h>
