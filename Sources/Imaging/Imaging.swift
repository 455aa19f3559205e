// Imaging
